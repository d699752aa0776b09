#!/usr/bin/env python3
"""Per-direction link loads of the bt/sp sweeps (sweep.c) under a placement, as SimGrid routes them.

A multi-partition sweep runs its x, y and z directions one after another, and within a direction
every rank sends to the same successor at each stage: (i+1, j) along x, (i, j+1) along y and
(i-1, j+1) along z, rank = j*q + i. Each stage is a permutation, so its time follows the busiest
link of that permutation alone, not of the whole communication graph that rankmap's mappers see.
This prints, for each host file, the number of flows on the busiest link (dimension-ordered routing,
dimension 0 first, SimGrid's) and the mean hops, per direction, and their sum over directions.

Usage: sweep_stages.py --torus 8x8x8 --q 32 HOSTFILE...
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smpi_platform  # noqa: E402

SUCCESSORS = {"x": lambda i, j: (i + 1, j), "y": lambda i, j: (i, j + 1), "z": lambda i, j: (i - 1, j + 1)}


def dor_links(a, b, dims):
    """The directed links of the dimension-ordered route from a to b (ties go the + way)."""
    links, here = [], list(a)
    for d, k in enumerate(dims):
        forward = (b[d] - here[d]) % k
        step, count = (1, forward) if forward <= k // 2 else (-1, k - forward)
        for _ in range(count):
            links.append((tuple(here), d, step))
            here[d] = (here[d] + step) % k
    return links


def direction_loads(hosts, dims, q, successor):
    """(flows on the busiest link, mean hops) of one sweep direction; hosts[r] is rank r's coordinates."""
    load, hops = collections.Counter(), 0
    for j in range(q):
        for i in range(q):
            ni, nj = successor(i, j)
            route = dor_links(hosts[j * q + i], hosts[(nj % q) * q + ni % q], dims)
            hops += len(route)
            load.update(route)
    return max(load.values(), default=0), hops / (q * q)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--torus", required=True, help="extents, e.g. 8x8x8")
    parser.add_argument("--q", type=int, required=True, help="side of the rank grid (P = q*q)")
    parser.add_argument("hostfiles", nargs="+")
    args = parser.parse_args(argv)
    dims = smpi_platform.parse_torus("torus:" + args.torus)
    for path in args.hostfiles:
        with open(path) as f:
            names = [line.strip() for line in f if line.strip()]
        if len(names) != args.q * args.q:
            raise SystemExit(f"sweep_stages: {path} has {len(names)} ranks, expected {args.q * args.q}")
        hosts = [smpi_platform.simgrid_coords(int(name[1:]), dims) for name in names]
        cells, total = [], 0
        for name, successor in SUCCESSORS.items():
            busiest, mean_hops = direction_loads(hosts, dims, args.q, successor)
            total += busiest
            cells.append(f"{name}: {busiest} flows, {mean_hops:.2f} hops")
        print(f"{os.path.basename(path):28} {' | '.join(cells)} | sum of busiest {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
