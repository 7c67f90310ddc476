"""Load a script whose file name is not a module name (compare-sparse.py,
tally-kunit.py, ...) as a module, for the unit tests."""
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

TOP = Path(__file__).resolve().parent.parent


def load(name: str, path: Path) -> ModuleType:
    """The script at @path (relative to the checkout) as module @name,
    registered in sys.modules, where dataclasses look their module up."""
    spec = importlib.util.spec_from_file_location(name, TOP / path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod
