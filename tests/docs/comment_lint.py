#!/usr/bin/env python3
"""Comments in sim/ say what code does and why, its units and its limits;
measurements and history belong in docs/engineering.md, next to the command
that prints them. This fails on a comment under sim/ that carries
"instructions per", an issue number ("issue 27", "#12") or a timing
("3.2 ms", "5 µs", "40 ns"), and prints file:line for each.

usage: comment_lint.py [SOURCE_DIR]   (default: the repository this is in)
"""
import os
import re
import sys

SUFFIXES = (".hpp", ".cpp", ".cu", ".cuh")
RULES = [
    ("a measurement (instructions per ...)", re.compile(r"instructions per", re.I)),
    ("an issue number", re.compile(r"\bissues?\s+#?\d+\b", re.I)),
    ("an issue number", re.compile(r"(?<![\w&#])#\d+\b")),
    ("a timing", re.compile(r"\b\d+(\.\d+)?\s?(ms|µs|us|ns)\b")),
]


# A comment, or a literal to skip: a raw string, a string, a character
# literal (a ' after a digit or letter is a digit separator, 1'000, or part
# of a prefix and is left to the plain scan).
TOKEN = re.compile(
    r"(?P<line>//[^\n]*)"
    r"|(?P<block>/\*.*?(?:\*/|\Z))"
    r'|(?<![\w])R"(?P<delim>[^()\\\s]{0,16})\(.*?\)(?P=delim)"'
    r'|"(?:\\.|[^"\\\n])*"'
    r"|(?<![\w'])'(?:\\.|[^'\\\n])*'",
    re.S,
)


def comments(text):
    """Yield (line number, text) for each line of every comment in C++ or
    CUDA source; string and character literals are skipped."""
    line, at = 1, 0
    for m in TOKEN.finditer(text):
        line += text.count("\n", at, m.start())
        at = m.start()
        if m.group("line") is not None:
            yield line, m.group("line")[2:].lstrip("/!")
        elif m.group("block") is not None:
            body = m.group("block")[2:]
            body = body[:-2] if body.endswith("*/") else body
            for k, part in enumerate(body.lstrip("*!").split("\n")):
                yield line + k, part


def lint(source):
    offenders = []
    sim = os.path.join(source, "sim")
    for root, dirs, files in os.walk(sim):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(SUFFIXES):
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for line, comment in comments(text):
                for what, rule in RULES:
                    if rule.search(comment):
                        offenders.append(f"{os.path.relpath(path, source)}:{line}: {what}: {comment.strip()}")
                        break
    return offenders


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    source = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(here))
    offenders = lint(source)
    for o in offenders:
        print(o)
    if offenders:
        print(f"{len(offenders)} comment line(s) in sim/ carry measurements or issue numbers: "
              "move the figure to docs/engineering.md with the command that prints it")
        return 1
    print("comments in sim/ carry no measurements or issue numbers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
