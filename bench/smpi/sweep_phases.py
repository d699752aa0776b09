#!/usr/bin/env python3
"""Writes the seven communication phases of sweep.c (bt or sp) as graph files, for `rankmap map --phases`.

Phase 1 is copy_faces (each rank to its six neighbours at once), phases 2-7 the forward and backward
sweeps along x, y and z (every stage of a sweep is the same permutation, so a phase's bytes are its
q - 1 stages' messages). The sum of the phases must equal the graph the program itself recorded
(`--graph`, the experiment's runs/CONFIG/PROGRAM/graph.mtx), edge by edge: the script refuses
otherwise, so the phases cannot drift from what sweep.c sends.

Usage: sweep_phases.py --q 32 --n 8 --variant bt|sp --graph graph.mtx --out PREFIX
writes PREFIX1.mtx ... PREFIX7.mtx.
"""
import argparse
import collections
import sys

WIDTHS = {"bt": (30, 5), "sp": (22, 10)}  # doubles per face point, forward and backward (sweep.c)


def phases_of(q, n, fwd, bwd):
    def rank(i, j):
        return (j % q) * q + i % q

    def neighbour(i, j, d, step):
        return rank(i + step, j) if d == 0 else rank(i, j + step) if d == 1 else rank(i - step, j + step)

    copy = collections.Counter()
    for j in range(q):
        for i in range(q):
            cells = [((i + c) % q, (j - c) % q, c) for c in range(q)]
            for d in range(3):
                for step in (-1, 1):
                    faces = sum(1 for xyz in cells if 0 <= xyz[d] + step < q)
                    if faces:
                        copy[(rank(i, j), neighbour(i, j, d, step))] += faces * 2 * n * n * 5 * 8
    phases = [copy]
    for d in range(3):
        for step, width in ((1, fwd), (-1, bwd)):
            phases.append(collections.Counter({(rank(i, j), neighbour(i, j, d, step)): (q - 1) * n * n * width * 8
                                               for j in range(q) for i in range(q)}))
    return phases


def read_mtx(path):
    edges = collections.Counter()
    with open(path) as f:
        rows = [line for line in f if not line.startswith("%")]
    for line in rows[1:]:
        a, b, w = line.split()
        edges[(int(a) - 1, int(b) - 1)] += float(w)
    return edges


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--q", type=int, required=True)
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--variant", choices=sorted(WIDTHS), required=True)
    parser.add_argument("--graph", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    phases = phases_of(args.q, args.n, *WIDTHS[args.variant])
    total = collections.Counter()
    for phase in phases:
        total.update(phase)
    recorded = read_mtx(args.graph)
    if set(recorded) != set(total) or any(abs(recorded[k] - total[k]) > 1e-6 for k in recorded):
        raise SystemExit(f"sweep_phases: the phases do not add up to {args.graph}")
    for k, phase in enumerate(phases, start=1):
        with open(f"{args.out}{k}.mtx", "w") as f:
            f.write(f"%%MatrixMarket matrix coordinate real general\n{args.q ** 2} {args.q ** 2} {len(phase)}\n")
            f.writelines(f"{a + 1} {b + 1} {w:.17g}\n" for (a, b), w in sorted(phase.items()))
    print(f"{len(phases)} phases, adding up to {args.graph}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
