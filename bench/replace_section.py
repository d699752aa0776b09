#!/usr/bin/env python3
"""Replaces the `## HEADING` section of a Markdown file (up to the next `## `) with a new one.

    replace_section.py FILE SECTION.md

The heading is the first line of SECTION.md. The section is appended when FILE has none, and
FILE is created (with a `# Benchmarks` title) when it does not exist. report.py (bench/smpi)
imports replace_section() for the same job.
"""
import os
import re
import sys


def replace_section(target, new):
    """Puts the section `new` (its first line is its heading) into the Markdown file `target`."""
    heading = new.splitlines()[0]
    text = open(target).read() if os.path.exists(target) else "# Benchmarks\n"
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
    target, section = sys.argv[1:3]
    replace_section(target, open(section).read())
