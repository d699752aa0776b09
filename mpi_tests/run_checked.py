#!/usr/bin/env python3
"""Runs a command (an mpiexec line) and checks its combined output.

  run_checked.py [--expect REGEX]... [--reject REGEX]... [--lowered] [--timeout S] -- command...

--expect: the regex must occur in the output; --reject: it must not; --lowered: some rankmap report
line must say applied=yes with after < before, read as numbers. The command must exit with 0.
"""
import argparse
import re
import subprocess
import sys

REPORT = re.compile(r"rankmap: \S+ tasks=\d+ .*?before=(\S+) after=(\S+) .*?applied=(yes|no)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--expect", action="append", default=[])
    parser.add_argument("--reject", action="append", default=[])
    parser.add_argument("--lowered", action="store_true")
    parser.add_argument("--timeout", type=float, default=150)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    try:
        run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        print(f"run_checked: timed out after {args.timeout} s (a hang)")
        return 1
    output = run.stdout.decode(errors="replace")
    print(output)
    problems = []
    if run.returncode != 0:
        problems.append(f"exit status {run.returncode}")
    problems += [f"missing /{r}/" for r in args.expect if not re.search(r, output, re.MULTILINE)]
    problems += [f"unexpected /{r}/" for r in args.reject if re.search(r, output, re.MULTILINE)]
    if args.lowered:
        lines = [(float(b), float(a)) for b, a, applied in REPORT.findall(output) if applied == "yes"]
        if not any(after < before for before, after in lines):
            problems.append("no report line with applied=yes and after < before")
        for before, after in lines:
            print(f"run_checked: objective {before:g} -> {after:g}")
    for p in problems:
        print(f"run_checked: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
