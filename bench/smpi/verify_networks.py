#!/usr/bin/env python3
"""Checks rankmap's fat-tree and dragonfly models against SimGrid on the benchmark's own platforms, as
verify_torus.py does for the torus.

1. Routes: tests/topology/simgrid_routes (built from the tests, label smpi) loads the FAT_TREE or
   DRAGONFLY cluster of a spec and checks, for every ordered pair of hosts, that the links SimGrid
   routes over are exactly, and in order, the channels of rankmap's own route under SimGrid's routing
   (`dmodk` on a fat-tree, `minimal` on a dragonfly). Here it runs on the two 1,024-node platforms.
2. Contention: timed transfers of S bytes (verify_torus's `transfer` mode: rank i sends to rank
   i + P/2, all at once) on the benchmark's platform.xml. For each set of flows rankmap predicts the
   time of the slowest transfer as MCL / 1.8 GB/s, the MCL from `rankmap eval --json` of the flows
   (one task per host, edge i -> i + P/2 of S bytes) under SimGrid's routing; the simulated time must
   equal it. The MCL under `adaptive` is shown beside it: the cases where it differs show that the
   simulator follows SimGrid's static routes, not an even split.

Usage: verify_networks.py --transfer VERIFY_TORUS_BINARY --rankmap PATH --workdir DIR [--routes SIMGRID_ROUTES]
                          --platform NAME=SPEC=PLATFORM.xml ...
Prints a markdown table and exits non-zero if any check fails.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verify_torus import smpirun  # noqa: E402

BYTES = 100_000_000
BANDWIDTH = 1.8e9
ROUTING = {"fattree": "dmodk", "dragonfly": "minimal"}


def fattree_cases(spec):
    """(description, [(src, dst), ...]) on fattree:3;16,8,8;...: 16 nodes per leaf switch (8 up links),
    8 leaves per pod."""
    return [
        ("n0->n16 alone (leaf 0 to leaf 1)", [(0, 16)]),
        ("n0..n7 -> n16,n24,...,n72: every destination = 0 mod 8, so dmodk sends all 8 up port 0 of leaf 0",
         [(s, 16 + 8 * s) for s in range(8)]),
        ("n0..n7 -> n16..n23: destinations differ mod 8, one up port each", [(s, 16 + s) for s in range(8)]),
        ("n0..n15 -> n128..n143: a whole leaf to another pod over 8 up links (2:1 taper)",
         [(s, 128 + s) for s in range(16)]),
    ]


def dragonfly_cases(spec):
    """On dragonfly:8,2;4,1;8,1;4: node ((g*4 + c)*8 + r)*4 + k; router (g,c,r) holds 4 nodes."""
    def node(g, c, r, k):
        return ((g * 4 + c) * 8 + r) * 4 + k
    return [
        ("n0 -> n128 alone (group 0 to group 1)", [(node(0, 0, 0, 0), node(1, 0, 0, 0))]),
        ("4 flows from router (0,0,1), the gateway to group 1, to router (1,0,0): one global link of 2 parallel links",
         [(node(0, 0, 1, k), node(1, 0, 0, k)) for k in range(4)]),
        ("8 flows from routers (0,0,1) and (0,0,2) to group 1: the second 4 also cross green (0,0,2)->(0,0,1)",
         [(node(0, 0, 1 + k // 4, k % 4), node(1, 0, k // 4, k % 4)) for k in range(8)]),
        ("(0,1,0) -> (0,0,1) with (0,1,0) -> (0,1,1): SimGrid's minimal takes green (0,1,0)->(0,1,1) for both",
         [(node(0, 1, 0, 0), node(0, 0, 1, 0)), (node(0, 1, 0, 1), node(0, 1, 1, 0))]),
    ]


def predicted(rankmap, spec, pairs, workdir, name):
    """rankmap's MCL of the flows under SimGrid's routing and under adaptive, in bytes per link."""
    hosts = [s for s, _ in pairs] + [d for _, d in pairs]
    alloc = os.path.join(workdir, f"{name}.alloc")
    graph = os.path.join(workdir, f"{name}.mtx")
    with open(alloc, "w") as f:
        f.write(f"network {spec}\n" + "".join(f"node n{h} {h}\n" for h in hosts))
    half = len(pairs)
    with open(graph, "w") as f:
        f.write(f"%%MatrixMarket matrix coordinate real general\n{2 * half} {2 * half} {half}\n")
        f.write("".join(f"{i + 1} {i + half + 1} {BYTES}\n" for i in range(half)))
    routing = ROUTING[spec.partition(":")[0]]
    proc = subprocess.run([rankmap, "eval", "--graph", graph, "--alloc-file", alloc, "--ppn", "1", "--routing", routing,
                           "--json"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"verify_networks: rankmap eval failed: {proc.stderr}")
    row = json.loads(proc.stdout)
    return row["mcl"], row["mcl_adaptive"], routing


def check_contention(args, name, spec, platform, rows):
    kind = spec.partition(":")[0]
    cases = fattree_cases(spec) if kind == "fattree" else dragonfly_cases(spec)
    t1 = BYTES / BANDWIDTH
    ok_all = True
    for index, (text, pairs) in enumerate(cases):
        mcl, mcl_adaptive, routing = predicted(args.rankmap, spec, pairs, args.workdir, f"{name}-{index}")
        hosts = [f"n{s}" for s, _ in pairs] + [f"n{d}" for _, d in pairs]
        status, out = smpirun(args.transfer, platform, hosts, ["transfer", str(BYTES)], args.workdir)
        times = [float(ln.rsplit("time=", 1)[1]) for ln in out.splitlines() if ln.startswith("transfer:")]
        got = max(times) if status == 0 and len(times) == len(pairs) else None
        want = mcl / BANDWIDTH
        ok = got is not None and abs(got / want - 1) < 1e-3
        shown = "failed" if got is None else f"{got / t1:.3f} T1"
        rows.append((f"{name}: {text}", f"{shown}; rankmap {routing} {want / t1:.3f} T1 "
                                        f"(adaptive {mcl_adaptive / BANDWIDTH / t1:.3f} T1)", ok))
        ok_all &= ok
    return ok_all


def check_routes(binary, spec, rows):
    proc = subprocess.run([binary, spec.replace(";", "/")], capture_output=True, text=True)
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("simgrid_routes")),
                (proc.stdout + proc.stderr).strip()[-200:])
    rows.append((f"routes on {spec}, every ordered host pair, SimGrid's links = rankmap's {ROUTING[spec.partition(':')[0]]} "
                 "channels", line, proc.returncode == 0))
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-3000:])
    return proc.returncode == 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--transfer", required=True, help="verify_torus built with smpicc")
    parser.add_argument("--rankmap", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--routes", help="tests/topology/simgrid_routes")
    parser.add_argument("--platform", action="append", required=True, help="NAME=SPEC=PLATFORM.xml")
    args = parser.parse_args(argv)
    args.transfer = os.path.abspath(args.transfer)
    os.makedirs(args.workdir, exist_ok=True)
    rows = []
    ok = True
    for item in args.platform:
        name, spec, platform = item.split("=", 2)
        if args.routes:
            ok &= check_routes(args.routes, spec, rows)
        ok &= check_contention(args, name, spec, platform, rows)
    print("| check | result | |")
    print("|---|---|---|")
    for text, result, passed in rows:
        print(f"| {text} | {result} | {'pass' if passed else 'FAIL'} |")
    print(f"\nT1 = {BYTES} bytes / 1.8 GB/s = {BYTES / BANDWIDTH * 1e3:.2f} ms; a transfer time is the slowest of "
          "the set's, which max-min sharing makes MCL / bandwidth when every flow on the busiest link is held by it.")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
