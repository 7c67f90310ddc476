#!/usr/bin/env python3
"""Run the Python unit tests (tests/test_*.py) and end with the runner's
"N passed, N failed" line."""
import sys
import unittest
from pathlib import Path


class CountingResult(unittest.TextTestResult):
    """Prints PASS/FAIL per test, like the shell suites."""

    def addSuccess(self, test: unittest.TestCase) -> None:
        super().addSuccess(test)
        print(f"PASS {test.id()}")


def main() -> int:
    here = Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    suite = unittest.defaultTestLoader.discover(str(here), pattern="test_*.py")
    runner = unittest.TextTestRunner(resultclass=CountingResult, verbosity=0,
                                     stream=sys.stdout)
    res = runner.run(suite)
    failed = len(res.failures) + len(res.errors)
    for test, _ in res.failures + res.errors:
        print(f"FAIL {test.id()}")
    print(f"{res.testsRun - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
