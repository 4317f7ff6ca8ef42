#!/usr/bin/env python3
"""Every relative link in README.md and docs/*.md leads somewhere: a
[text](path) or ![alt](path) to a file or folder of the repository, and a
[text](path#anchor) or [text](#anchor) into a Markdown file to one of its
headings, by GitHub's rule for a heading's anchor (lowercase; spaces to
'-'; punctuation other than '-' and '_' dropped; a repeated heading gets
-1, -2, ...). Links to a scheme (https:, mailto:) are not followed, nor is
anything in code. Prints file:line for each broken link.

usage: doc_links.py [SOURCE_DIR]   (default: the repository this is in)
"""
import glob
import os
import re
import sys
from urllib.parse import unquote

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1)[^\n]|\n(?!\s*\n))+?\1")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = text.replace("`", "").replace("*", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def lines_outside_code(path):
    """(line number, text) of each line outside fenced code."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield number, line


def prose(path):
    """The file with fenced code and code spans blanked, newlines kept, so
    a link may span lines and an offset still gives its line."""
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    fenced = False
    for k, line in enumerate(lines):
        fence = FENCE.match(line)
        if fenced or fence:
            lines[k] = "\n"
        if fence:
            fenced = not fenced
    text = "".join(lines)
    return CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def anchors(path, cache={}):
    if path not in cache:
        seen, found = {}, set()
        for _, line in lines_outside_code(path):
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        cache[path] = found
    return cache[path]


def check(source):
    files = [os.path.join(source, "README.md")] + sorted(glob.glob(os.path.join(source, "docs", "**", "*.md"),
                                                                   recursive=True))
    broken, count = [], 0
    for md in files:
        if not os.path.exists(md):
            broken.append(f"{os.path.relpath(md, source)}: missing")
            continue
        text = prose(md)
        for m in LINK.finditer(text):
            target = m.group(1)
            if not target or re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target) or target.startswith("//"):
                continue
            count += 1
            number = text.count("\n", 0, m.start()) + 1
            where = f"{os.path.relpath(md, source)}:{number}: ({target})"
            path, _, anchor = target.partition("#")
            path = unquote(path)
            if path.startswith("/"):
                resolved = os.path.normpath(os.path.join(source, path.lstrip("/")))
            else:
                resolved = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
            if os.path.relpath(resolved, source).startswith(".."):
                broken.append(f"{where} leads out of the repository")
            elif not os.path.exists(resolved):
                broken.append(f"{where} no such file")
            elif anchor and resolved.endswith(".md") and unquote(anchor).lower() not in anchors(resolved):
                broken.append(f"{where} no heading #{anchor} in {os.path.relpath(resolved, source)}")
    return broken, count


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    source = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(here)))
    broken, count = check(source)
    for b in broken:
        print(b)
    if broken:
        print(f"{len(broken)} of {count} links in README.md and docs/ lead nowhere")
        return 1
    print(f"every one of the {count} links in README.md and docs/ resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
