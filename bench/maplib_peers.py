#!/usr/bin/env python3
"""rankmap's mappers against MapLib's 12 peer mappings on MapLib's four real 64-rank matrices.

    bench/maplib_peers.py RANKMAP_TOOL [--rows auto@200,auto@10000,mahd+refine@200,rahtm] [--out FILE.md]

Every instance is one matrix (AMG, BT-MZ, CG, LULESH; bench/data/maplib) on a 4x4x4 mesh or torus,
one rank per node. Each peer mapping and each row is scored with `rankmap eval` (MCL under
adaptive routing, the objective every row minimises, and hop-bytes), and the table gives each as a
ratio to the launcher's order (the identity). A row `ALGO@MS` runs `rankmap map --algo ALGO
--time-budget-ms MS`, one run each, seed 1; a row without `@` runs with the tool's default budget.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "maplib")
APPS = ["amg", "btmz", "cg", "lulesh"]
TOPOLOGIES = ["mesh", "torus"]
EXTENT = 4


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"maplib_peers: {' '.join(cmd)} failed:\n{done.stderr}")
    return done.stdout


def job_args(app, topology):
    return ["--graph", os.path.join(DATA, "matrices", f"{app}.size.csv"), "--topology",
            f"{topology}:{EXTENT}x{EXTENT}x{EXTENT}", "--ppn", "1"]


def evaluate(tool, app, topology, mapping_file=None):
    cmd = [tool, "eval", *job_args(app, topology), "--json"]
    if mapping_file:
        cmd += ["--mapping", mapping_file]
    out = json.loads(run(cmd))
    return out["mcl"], out["hop_bytes"]


def peer_slots(path):
    """slot_of[process] from a MapLib mapping: lines `x y z count process...` after two header lines.
    On a cube with equal extents every axis order gives the same loads, so node = x + 4y + 16z."""
    with open(path) as f:
        lines = f.read().split("\n")[2:]
    slot_of = {}
    for line in lines:
        fields = line.split()
        if not fields:
            continue
        x, y, z, count = (int(v) for v in fields[:4])
        if count != 1 or len(fields) != 5:
            sys.exit(f"maplib_peers: {path}: expected one process per node, got '{line}'")
        slot_of[int(fields[4])] = x + EXTENT * y + EXTENT * EXTENT * z
    if sorted(slot_of) != list(range(EXTENT ** 3)) or sorted(slot_of.values()) != list(range(EXTENT ** 3)):
        sys.exit(f"maplib_peers: {path} is not a permutation of the 64 processes")
    return [slot_of[t] for t in range(EXTENT ** 3)]


def write_like(template, slot_of, algorithm, path):
    """A rankmap mapping file with the template's header (graph and allocation hashes) and these slots."""
    with open(template) as f:
        header = [l for l in f.read().split("\n") if l and not l[0].isdigit()]
    header = [f"algorithm {algorithm}" if l.startswith("algorithm ") else l for l in header]
    with open(path, "w") as f:
        f.write("\n".join(header) + "\n")
        f.writelines(f"{t} {s}\n" for t, s in enumerate(slot_of))


def map_row(tool, app, topology, row, workdir):
    algo, _, budget = row.partition("@")
    out = os.path.join(workdir, f"{app}.{topology}.{row.replace('@', '_')}.map")
    cmd = [tool, "map", *job_args(app, topology), "--algo", algo, "--threads", "1", "-o", out]
    if budget:
        cmd += ["--time-budget-ms", budget]
    printed = run(cmd)
    chosen = next((l.split(None, 1)[1] for l in printed.splitlines() if l.startswith("algorithm ")), algo)
    return out, chosen


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tool")
    parser.add_argument("--rows", default="auto@200,auto@10000,mahd+refine@200,rahtm")
    parser.add_argument("--out")
    args = parser.parse_args()
    rows = args.rows.split(",")
    lines = ["| instance | best peer (name) | " + " | ".join(rows) + " | winner of auto |",
             "|---|---|" + "---|" * len(rows) + "---|"]
    at_most_best = {row: 0 for row in rows}
    with tempfile.TemporaryDirectory() as workdir:
        for app in APPS:
            for topology in TOPOLOGIES:
                identity_mcl, _ = evaluate(args.tool, app, topology)
                template, _ = map_row(args.tool, app, topology, "identity", workdir)
                peers = {}
                for name in sorted(os.listdir(os.path.join(DATA, "peer-mappings"))):
                    prefix = f"{app}.{topology}."
                    if not name.startswith(prefix):
                        continue
                    peer = name[len(prefix):-len(".txt")]
                    path = os.path.join(workdir, f"peer.{app}.{topology}.{peer}.map")
                    write_like(template, peer_slots(os.path.join(DATA, "peer-mappings", name)), peer, path)
                    peers[peer] = evaluate(args.tool, app, topology, path)[0]
                best_peer = min(peers, key=peers.get)
                cells, winners = [], []
                for row in rows:
                    path, chosen = map_row(args.tool, app, topology, row, workdir)
                    mcl = evaluate(args.tool, app, topology, path)[0]
                    if mcl <= peers[best_peer] * (1 + 1e-9):
                        at_most_best[row] += 1
                    cells.append(f"{mcl / identity_mcl:.3f}")
                    if row.startswith("auto"):
                        winners.append(chosen)
                lines.append(f"| {app} on {topology}:4x4x4 | {peers[best_peer] / identity_mcl:.3f} ({best_peer}) | "
                             + " | ".join(cells) + f" | {'; '.join(winners)} |")
    lines.append("| **at most the best peer** | | " + " | ".join(f"{at_most_best[r]} of 8" for r in rows) + " | |")
    text = ("MCL (adaptive routing) as a ratio to the launcher's order; one run per cell, seed 1, one thread.\n\n"
            + "\n".join(lines) + "\n")
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
