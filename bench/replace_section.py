#!/usr/bin/env python3
"""Replaces the section of BENCHMARKS.md that starts with a given `## ` heading (up to the next
`## ` heading) by the contents of a file, or appends it when the heading is not there yet.

    bench/replace_section.py BENCHMARKS.md SECTION_FILE "## Heading"
"""
import re
import sys


def main():
    target, section, heading = sys.argv[1:4]
    try:
        text = open(target).read()
    except FileNotFoundError:
        text = "# Benchmarks\n"
    new = open(section).read()
    if heading in text:
        start = text.index(heading)
        rest = text[start + len(heading):]
        m = re.search(r"^## ", rest, re.M)
        end = start + len(heading) + (m.start() if m else len(rest))
        text = text[:start] + new + ("\n" + text[end:] if m else "")
    else:
        text = text.rstrip("\n") + "\n\n" + new
    open(target, "w").write(text)


if __name__ == "__main__":
    main()
