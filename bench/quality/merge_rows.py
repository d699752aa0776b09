#!/usr/bin/env python3
"""Replaces some rows of a quality-table CSV with the same rows of a later run.

    merge_rows.py BASE.csv NEWER.csv OUT.csv

For a row that changed (auto, after a change to it) without rerunning the rows that did not (the
single algorithms, an hour of the table): every cell of NEWER replaces BASE's cell of the same
instance and row. Instances are matched by number, pattern and allocation, and the identity's MCL
must be equal in both runs, so that a different instance set cannot be merged. OUT's header is
BASE's, with `merged_rows=` naming the rows that came from NEWER.
"""
import csv
import sys


def read(path):
    with open(path) as f:
        header = f.readline().rstrip("\n")
        return header, list(csv.DictReader(f))


def main(base_path, newer_path, out_path):
    base_header, base = read(base_path)
    _, newer = read(newer_path)
    key = lambda c: (c["instance"], c["row"])  # noqa: E731
    where = lambda c: (c["pattern"], c["allocation"], c["tasks"])  # noqa: E731
    base_cells = {key(c): c for c in base}
    for c in newer:
        old = base_cells.get((c["instance"], "identity"))
        if old is None or where(old) != where(c):
            sys.exit(f"merge_rows: instance {c['instance']} ({c['pattern']} on {c['allocation']}) is not BASE's")
        if c["row"] == "identity" and c["status"] == "ok" and old["mcl_adaptive"] != c["mcl_adaptive"]:
            sys.exit(f"merge_rows: the identity's MCL of instance {c['instance']} differs between the runs")
    replaced = {key(c): c for c in newer}
    rows = [replaced.pop(key(c), c) for c in base] + list(replaced.values())
    with open(out_path, "w", newline="") as f:
        f.write(f"{base_header} merged_rows={','.join(sorted({c['row'] for c in newer}))}\n")
        writer = csv.DictWriter(f, fieldnames=list(base[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
