#!/usr/bin/env python3
"""Phases found without the program's help: a prototype of automatic phase detection (issue 16).

A program whose steps wait for each other (a sweep's stages) loads each link with one step at a
time, not with the sum of its steps, and the aggregate graph cannot show that. This script tests
a rule that a profiler could apply without MPI_Pcontrol: a rank's sends between two completions of
a receive (recv, wait, waitall, a collective) form one *step*; step k of the job is every rank's
k-th non-empty step; steps that connect the same pairs of ranks are one phase. Programs that post
all their messages at once (halo exchanges) then have one phase, the aggregate.

It reads SimGrid's time-independent trace of the program (`smpirun -trace-ti`; one file per rank:
`RANK isend|send PEER TAG SIZE TYPE`, `RANK wait|waitall|recv ...`) and writes PREFIX.phase<k>.mtx,
whose edges add up to GRAPH (the bytes the experiment recorded), each edge split over the phases in
proportion to the trace's sends on it; edges the trace does not have go to the largest phase.

Usage: step_phases.py --trace TRACE --graph graph.mtx --out PREFIX [--max-phases 64]
(TRACE: the file `--cfg=tracing/filename` named, which lists the per-rank files.)
"""
import argparse
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_phases  # noqa: E402

SENDS = {"send", "isend"}
# Actions after which a rank has waited for another rank's data.
COMPLETIONS = {"recv", "wait", "waitall", "waitany", "sendrecv", "barrier", "bcast", "reduce", "allreduce",
               "allgather", "allgatherv", "alltoall", "alltoallv", "gather", "gatherv", "scatter", "scatterv",
               "reducescatter", "scan", "exscan"}


def read_mtx(path):
    """The graph's order and its edges (sweep_phases.read_mtx's)."""
    with open(path) as f:
        n = int(next(line for line in f if not line.startswith("%")).split()[0])
    return n, sweep_phases.read_mtx(path)


def rank_steps(path):
    """The rank's steps: a list of {peer: sent} per non-empty step, in order."""
    steps, current = [], collections.Counter()
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 2:
                continue
            action = fields[1]
            if action in SENDS:
                current[int(fields[2])] += float(fields[4])
            elif action in COMPLETIONS and current:
                steps.append(current)
                current = collections.Counter()
    if current:
        steps.append(current)
    return steps


def trace_files(trace):
    with open(trace) as f:
        files = [line.strip() for line in f if line.strip()]
    by_rank = {}
    for path in files:
        m = re.search(r"rank-(\d+)\.txt$", path)
        if m:
            by_rank[int(m.group(1)) - 1] = path  # SimGrid numbers the files from 1
    return by_rank


def job_steps(trace, n):
    """Every step of the job, in order: {(rank, peer): sent}, step k holding every rank's k-th."""
    files = trace_files(trace)
    if sorted(files) != list(range(n)):
        raise SystemExit(f"step_phases: the trace has {len(files)} ranks, the graph {n}")
    per_step = collections.defaultdict(collections.Counter)
    for rank in range(n):
        for k, step in enumerate(rank_steps(files[rank])):
            for peer, sent in step.items():
                per_step[k][(rank, peer)] += sent
    return [per_step[k] for k in sorted(per_step)]


def phases_of(steps, max_phases):
    """Steps between the same pairs of ranks summed into one phase each, in order of first
    appearance; beyond max_phases, the smallest folded into the largest."""
    phases = collections.OrderedDict()
    for step in steps:
        phases.setdefault(frozenset(step), collections.Counter()).update(step)
    loads = list(phases.values())
    if len(loads) > max_phases:
        loads.sort(key=lambda c: -sum(c.values()))
        for extra in loads[max_phases:]:
            loads[0].update(extra)
        loads = loads[:max_phases]
    return loads


def scaled_to(graph, loads):
    """The phases' edges with the graph's weights, each edge split in proportion to the phases'
    sends on it; an edge no phase has goes to the largest."""
    traced = collections.Counter()
    for c in loads:
        traced.update(c)
    largest = max(range(len(loads)), key=lambda p: sum(loads[p].values()))
    out = [dict() for _ in loads]
    for edge, weight in graph.items():
        if traced[edge] > 0:
            for p, c in enumerate(loads):
                if c[edge] > 0:
                    out[p][edge] = weight * c[edge] / traced[edge]
        else:
            out[largest][edge] = weight
    return out, sum(1 for e in graph if traced[e] == 0)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trace", required=True)
    parser.add_argument("--graph", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--max-phases", type=int, default=64)
    args = parser.parse_args(argv)
    n, graph = read_mtx(args.graph)
    steps = job_steps(args.trace, n)
    if not steps:
        raise SystemExit(f"step_phases: {args.trace} has no sends")
    phases, untraced = scaled_to(graph, phases_of(steps, args.max_phases))
    for p, edges in enumerate(phases, start=1):
        with open(f"{args.out}.phase{p}.mtx", "w") as f:
            f.write("%%MatrixMarket matrix coordinate real general\n")
            f.write(f"% step phase {p} of {len(phases)} (step_phases.py), scaled to {args.graph}\n")
            f.write(f"{n} {n} {len(edges)}\n")
            for (i, j), w in sorted(edges.items()):
                f.write(f"{i + 1} {j + 1} {w:.17g}\n")
    print(f"{len(steps)} steps, {len(phases)} phases written; graph edges without a traced send: "
          f"{untraced} of {len(graph)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
