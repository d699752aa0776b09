#!/usr/bin/env python3
"""Checks a RANKMAP_PROFILE profile against the traffic its test program is known to send.

  check_profile.py PREFIX --program traffic_kinds|send_cache|fortran|fortran_steps|step_kinds --np N
                   [--nodes K]

The expected bytes are computed here from each program's source, by MPI's rules (neighbourhood
order of a Cartesian communicator, a sub-communicator's ranks), independently of rankmap. Every
edge of PREFIX.mtx (and of PREFIX.phase<k>.mtx for phased programs) must match exactly, and the
collectives in PREFIX.summary must be the ones the program calls.
"""
import argparse
import os
import sys
from collections import defaultdict


def traffic_kinds(p):
    """traffic_kinds.c: two phases, split by MPI_Pcontrol."""
    one, two = defaultdict(int), defaultdict(int)
    for r in range(p):
        one[(r, (r + 1) % p)] += 100                               # MPI_Send, 100 chars
        half = sorted((x for x in range(p) if x % 2 == r % 2), reverse=True)  # split key -rank
        s = half.index(r)
        one[(r, half[(s + 1) % len(half)])] += 50 * 4               # MPI_Isend on the sub-communicator
        one[(r, (r + 2) % p)] += 3 * 30 * 8                         # persistent send started 3 times
        one[(r, (r + 3) % p)] += 16                                 # MPI_Sendrecv
        i, j = divmod(r, 4)                                         # MPI_Cart_create 2x4, periodic
        for neighbour in (((i - 1) % 2) * 4 + j, ((i + 1) % 2) * 4 + j, i * 4 + (j - 1) % 4, i * 4 + (j + 1) % 4):
            two[(r, neighbour)] += 8                                # MPI_Neighbor_alltoall, 1 double
        two[(r, (r + 5) % p)] += 10 * 4 + 3 * 2                     # alltoallv 10 ints + allgather 3 shorts
        two[(r, (r + 6) % p)] += 20 * 4 + 3 * 2
    collectives = {("allreduce", 4): (p, p * 4), ("allreduce", p): (p, p * 16), ("bcast", p): (p, p * 1000),
                   ("barrier", p): (p, 0)}
    return [one, two], collectives


def send_cache(p):
    """send_cache.c: two phases, split by MPI_Pcontrol; the sends with bad tags are not counted."""
    one, two = defaultdict(int), defaultdict(int)
    for r in range(p):
        for k in range(1, 5):
            one[(r, (r + k) % p)] += 5 * k * 4 + 5 * k * 8          # 10 rounds: k ints, then k doubles
        one[(r, (r + 1) % p)] += 3 * 2 * 3 * 4 + 3 * 2 * 5 * 8       # derived types of 3 ints, then 5 doubles
        one[(r, (r + 1) % p)] += 4 + 4                               # MPI_Sendrecv and MPI_Send of one int
        two[(r, (r + 1) % p)] += 3 * 7 * 4
    return [one, two], {("allreduce", p): (p, p * 4)}


def fortran(p):
    """profile_fortran.F90: one phase."""
    edges = defaultdict(int)
    for r in range(p):
        edges[(r, (r + 1) % p)] += 25 * 4 + 4 * 4                   # MPI_SEND 25 and MPI_SENDRECV 4 integers
        edges[(r, (r + 2) % p)] += 10 * 8                           # MPI_ISEND 10 double precision
        edges[(r, (r + 3) % p)] += 2 * 5 * 4                        # MPI_SEND_INIT 5 integers, started twice
    return [edges], {("allreduce", p): (p, p * 3 * 4), ("barrier", p): (p, 0)}


def fortran_steps(p):
    """profile_fortran.F90 under RANKMAP_PROFILE_PHASES=steps: a phase per set of peers, in order."""
    (edges,), collectives = fortran(p)
    phases = [defaultdict(int) for _ in range(3)]
    for (r, peer), w in edges.items():
        phases[(peer - r) % p - 1][(r, peer)] += w
    return phases, collectives


def step_kinds(p):
    """step_kinds.c: step s sends 4*s ints; its peers decide its phase."""
    peers_of = {1: (1,), 2: (2,), 3: (3,), 4: (1, 2), 5: (2,), 6: (3,), 7: (1,), 8: (3,), 9: (1,), 10: (1, 2), 11: (3,)}
    order = [(1,), (2,), (3,), (1, 2)]
    phases = [defaultdict(int) for _ in order]
    for step, peers in peers_of.items():
        for r in range(p):
            for offset in peers:
                phases[order.index(peers)][(r, (r + offset) % p)] += 4 * step * 4
    return phases, {("allreduce", p): (p, p * 4)}


PROGRAMS = {"traffic_kinds": traffic_kinds, "send_cache": send_cache, "fortran": fortran,
            "fortran_steps": fortran_steps, "step_kinds": step_kinds}


def read_mtx(path, p):
    edges = {}
    with open(path) as f:
        lines = [line for line in f if not line.startswith("%")]
    rows, cols, count = map(int, lines[0].split())
    if (rows, cols) != (p, p):
        sys.exit(f"check_profile: {path} is {rows}x{cols}, expected {p}x{p}")
    for line in lines[1:]:
        i, j, w = line.split()
        edges[(int(i) - 1, int(j) - 1)] = float(w)
    if len(edges) != count:
        sys.exit(f"check_profile: {path} announces {count} entries and has {len(edges)}")
    return edges


def compare(path, expected, p):
    found = read_mtx(path, p)
    want = {edge: float(w) for edge, w in expected.items() if edge[0] != edge[1]}
    problems = [f"edge {i}->{j}: {found.get((i, j))} bytes, expected {w}" for (i, j), w in sorted(want.items())
                if found.get((i, j)) != w]
    problems += [f"edge {i}->{j}: {w} bytes, expected none" for (i, j), w in sorted(found.items()) if (i, j) not in want]
    for problem in problems[:10]:
        print(f"check_profile: {path}: {problem}")
    return not problems


def collectives_of(summary):
    found = {}
    with open(summary) as f:
        for line in f:
            fields = line.split()
            if fields and fields[0] == "collective":
                values = dict(x.split("=") for x in fields[2:])
                found[(fields[1], int(values["size"]))] = (int(values["calls"]), int(values["bytes"]))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("prefix")
    parser.add_argument("--program", choices=sorted(PROGRAMS), required=True)
    parser.add_argument("--np", type=int, required=True)
    parser.add_argument("--nodes", type=int, help="the number of node lines PREFIX.coords and PREFIX.hosts must have")
    args = parser.parse_args()
    phases, collectives = PROGRAMS[args.program](args.np)
    ok = True
    total = defaultdict(int)
    for phase in phases:
        for edge, w in phase.items():
            total[edge] += w
    ok &= compare(args.prefix + ".mtx", total, args.np)
    if len(phases) > 1:
        for k, phase in enumerate(phases, start=1):
            ok &= compare(f"{args.prefix}.phase{k}.mtx", phase, args.np)
    extra = f"{args.prefix}.phase{len(phases) + 1 if len(phases) > 1 else 1}.mtx"
    if os.path.exists(extra):
        print(f"check_profile: unexpected {extra}")
        ok = False
    found = collectives_of(args.prefix + ".summary")
    if found != collectives:
        print(f"check_profile: collectives {sorted(found.items())}, expected {sorted(collectives.items())}")
        ok = False
    if args.nodes:
        with open(args.prefix + ".coords") as f:
            nodes = sum(1 for line in f if line.startswith("node "))
        with open(args.prefix + ".hosts") as f:
            hosts = sum(1 for line in f if line.strip())
        if (nodes, hosts) != (args.nodes, args.nodes):
            print(f"check_profile: {nodes} node lines and {hosts} hosts, expected {args.nodes} of each")
            ok = False
    print("check_profile: " + ("the profile matches the program's traffic" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
