"""Unit tests of tests/make-fresh-path.py: dependency closure and imports,
on made-up package data (no dpkg needed)."""
import tempfile
import unittest
from pathlib import Path

from script_module import load

mfp = load("make_fresh_path", Path("tests/make-fresh-path.py"))


class ClosureTest(unittest.TestCase):
    def test_parse_relations(self) -> None:
        self.assertEqual(mfp.parse_relations("a (>= 1.2), b:any | c, , d:amd64 (<< 3)"),
                         [["a"], ["b", "c"], ["d"]])

    def test_closure_follows_depends_alternatives_and_provides(self) -> None:
        pkgs = {
            "coccinelle": mfp.Pkg("coccinelle", depends=[["ocaml-findlib"], ["python3"]]),
            "ocaml-findlib": mfp.Pkg("ocaml-findlib", depends=[["ocaml-base"]]),
            "ocaml-base": mfp.Pkg("ocaml-base"),
            "python3": mfp.Pkg("python3", depends=[["awk"]]),
            "mawk": mfp.Pkg("mawk", provides=["awk"]),
            "ocaml": mfp.Pkg("ocaml"),  # installed, but nothing pulls it in
            "x": mfp.Pkg("x", depends=[["not-installed", "ocaml-base"]]),
        }
        why = mfp.closure(["coccinelle"], pkgs)
        self.assertEqual(set(why), {"coccinelle", "ocaml-findlib", "ocaml-base", "python3", "mawk"})
        self.assertEqual(why["mawk"], "needed by python3")
        self.assertNotIn("ocaml", why)
        self.assertEqual(set(mfp.closure(["x"], pkgs)), {"x", "ocaml-base"})

    def test_imported_modules(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            py = Path(d) / "a.py"
            py.write_text("import os.path, json\nfrom re import X\nfrom . import y\n")
            self.assertEqual(mfp.imported_modules(py), {"os", "json", "re"})
            cocci = Path(d) / "a.cocci"
            cocci.write_text("@initialize:python@\n@@\nimport json as j\n"
                             "from bh_lock_mask import (a, b)\n")
            self.assertEqual(mfp.imported_modules(cocci), {"json", "bh_lock_mask"})


if __name__ == "__main__":
    unittest.main()
