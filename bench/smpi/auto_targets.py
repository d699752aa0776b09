#!/usr/bin/env python3
"""Issue 16's simulated-network targets for the default mapper, from one run of experiment.py.

    auto_targets.py OUT [--out-md FILE.md] [--rows ROW,ROW,...]

Reads OUT/results.jsonl and OUT/mappings.jsonl and reports, for every (platform, program) pair with
an identity simulation, the simulated communication time of `auto@200ms` (the runtime's budget),
`auto@10s` (the tool's) and, for bt and sp, `auto@10s~phases` (with the phases the profiler
recorded) and `auto@5min@dor~phases` (the same, told that the torus routes dimension-ordered, with 5
minutes) relative to the identity's, and which start won each (from `rankmap map`'s output).
--rows names other rows, such as `auto@200ms~steps` and `auto@10s~steps` (with the phases
step_phases.py found); the winning starts are the first two rows'.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import load  # noqa: E402

ROWS = ["auto@200ms", "auto@10s", "auto@10s~phases", "auto@5min@dor~phases"]


def winner(mapping):
    found = re.search(r"algorithm  (\S+)", (mapping or {}).get("log", ""))
    return found.group(1) if found else "?"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--out-md")
    parser.add_argument("--rows", help="comma-separated rows (default: " + ",".join(ROWS) + ")")
    args = parser.parse_args()
    rows = args.rows.split(",") if args.rows else ROWS
    results = load(os.path.join(args.out, "results.jsonl"))
    mappings = load(os.path.join(args.out, "mappings.jsonl"))
    pairs = sorted({(c, p) for (c, p, m) in results if m == "identity"})
    lines = ["| platform | program | identity comm (ms) | " + " | ".join(rows) + " | winning start (200 ms; 10 s) |",
             "|---|---|---:|" + "---:|" * len(rows) + "---|"]
    slower = {r: [] for r in rows}
    cut20 = {r: 0 for r in rows}
    ran = {r: 0 for r in rows}
    for config, program in pairs:
        base = results[(config, program, "identity")]["comm_time"]
        cells = []
        for r in rows:
            row = results.get((config, program, r))
            if not row:
                cells.append("—")
                continue
            ratio = row["comm_time"] / base
            ran[r] += 1
            cut20[r] += ratio <= 0.8
            if ratio > 1.02:
                slower[r].append(f"{config}/{program} ({ratio:.2f})")
            cells.append(f"{ratio:.2f}" + ("" if row.get("check") == "ok" else " (check FAILED)"))
        won = "; ".join(winner(mappings.get((config, program, r))) for r in rows[:2])
        lines.append(f"| {config} | {program} | {base * 1e3:.3f} | " + " | ".join(cells) + f" | {won} |")
    lines.append("")
    for r in rows:
        if ran[r] == 0:
            continue
        bad = slower[r]
        lines.append(f"- `{r}`: slower than the identity by more than 2% on {len(bad)} of {ran[r]} pairs"
                     + (" (" + ", ".join(bad) + ")" if bad else "") + f"; at least 20% faster on {cut20[r]} of {ran[r]}.")
    text = "\n".join(lines) + "\n"
    if args.out_md:
        with open(args.out_md, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
