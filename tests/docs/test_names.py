#!/usr/bin/env python3
"""Every doctest case under tests/ can be run by ctest: CMake's
doctest_discover_tests splits a name at ';', so a case named with one is
registered under the part before it, which --test-case then matches to no
case at all, and the test passes having run nothing. This fails on each
TEST_CASE or SUBCASE name holding a ';' and prints file:line for each.

usage: test_names.py [SOURCE_DIR]   (default: the repository this is in)
"""
import pathlib
import re
import sys

NAME = re.compile(r'\b(?:TEST_CASE|SUBCASE)\(\s*"((?:\\.|[^"\\])*)"')


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
    bad = 0
    for path in sorted((root / "tests").rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".cu"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in NAME.finditer(text):
            if ";" in m.group(1):
                line = text.count("\n", 0, m.start()) + 1
                print(f"{path.relative_to(root)}:{line}: a test name with ';' runs nothing under ctest: {m.group(1)}")
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
