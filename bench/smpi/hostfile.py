#!/usr/bin/env python3
"""Turns a rankmap mapping into an SMPI host file (DESIGN.md §8), the cross-check of `rankmap emit`.

Line t of the host file is the host that runs rank t, i.e. the node of slot slot_of[t]; with ppn > 1
a host appears once per rank it runs. Slot s lives on node s // ppn of the allocation.

The allocation is either
  --alloc-file F   a rankmap coordinate file whose `node <host> <coords...>` lines list the allocated
                   nodes in slot order (what smpi_platform.py writes), or
  --topology T     a whole grid in rankmap's row-major order (dimension 0 slowest); the host of a node
                   is PREFIX + its SimGrid TORUS id, which numbers dimension 0 *fastest*:
                   id = c0 + k0*(c1 + k1*(c2 + ...)). This is the conversion DESIGN.md §8 warns about.

Usage:
  hostfile.py (--alloc-file F | --topology T [--prefix n]) --ppn N (--mapping M | --identity P) -o OUT
"""
import argparse
import itertools
import sys


class HostfileError(Exception):
    pass


def read_mapping(path):
    """slot_of[task] from a `rankmap-mapping 1` file; checks the header and that it is a permutation."""
    try:
        with open(path) as f:
            lines = [ln.split("#", 1)[0].strip() for ln in f]
    except OSError as e:
        raise HostfileError(f"{path}: {e.strerror}")
    lines = [ln for ln in lines if ln]
    if not lines or lines[0] != "rankmap-mapping 1":
        raise HostfileError(f"{path}:1: expected 'rankmap-mapping 1'")
    header = {}
    body_start = 1
    for i, ln in enumerate(lines[1:], start=1):
        key = ln.split()[0]
        if key in ("tasks", "graph", "allocation", "algorithm"):
            header[key] = ln.split()[1:]
            body_start = i + 1
        else:
            break
    if "tasks" not in header:
        raise HostfileError(f"{path}: no 'tasks' line")
    tasks = int(header["tasks"][0])
    slot_of = [-1] * tasks
    for ln in lines[body_start:]:
        fields = ln.split()
        if len(fields) != 2:
            raise HostfileError(f"{path}: bad mapping line '{ln}'")
        t, s = int(fields[0]), int(fields[1])
        if not (0 <= t < tasks and 0 <= s < tasks) or slot_of[t] != -1:
            raise HostfileError(f"{path}: line '{ln}' is out of range or repeats task {t}")
        slot_of[t] = s
    if -1 in slot_of or len(set(slot_of)) != tasks:
        raise HostfileError(f"{path}: the {tasks} lines do not form a permutation")
    return slot_of


def hosts_of_alloc_file(path):
    """Host name of every allocated node, in slot order, from a coordinate file's `node` lines."""
    hosts = []
    try:
        with open(path) as f:
            for number, ln in enumerate(f, start=1):
                fields = ln.split("#", 1)[0].split()
                if fields and fields[0] == "node":
                    if len(fields) < 3:
                        raise HostfileError(f"{path}:{number}: a node line needs a host and coordinates")
                    hosts.append(fields[1])
    except OSError as e:
        raise HostfileError(f"{path}: {e.strerror}")
    if not hosts:
        raise HostfileError(f"{path}: no node lines")
    return hosts


def hosts_of_topology(spec, prefix):
    """Host name of every node of a whole torus, in rankmap's row-major node order."""
    kind, _, extents = spec.partition(":")
    if kind != "torus":
        raise HostfileError(f"--topology {spec}: SimGrid TORUS clusters need a torus spec like torus:8x8x8")
    dims = [int(k) for k in extents.split("x")]
    hosts = []
    for coords in itertools.product(*[range(k) for k in dims]):
        host = 0
        for c, k in zip(reversed(coords), reversed(dims)):
            host = host * k + c
        hosts.append(f"{prefix}{host}")
    return hosts


def hostfile_lines(node_hosts, ppn, slot_of):
    slots = len(node_hosts) * ppn
    if len(slot_of) > slots:
        raise HostfileError(f"the mapping has {len(slot_of)} tasks but the allocation only {slots} slots")
    return [node_hosts[s // ppn] for s in slot_of]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--alloc-file")
    where.add_argument("--topology")
    parser.add_argument("--prefix", default="n", help="host name prefix with --topology (default n)")
    parser.add_argument("--ppn", type=int, required=True)
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--mapping")
    what.add_argument("--identity", type=int, metavar="P")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args(argv)
    try:
        if args.ppn < 1:
            raise HostfileError(f"--ppn {args.ppn}: must be at least 1")
        node_hosts = hosts_of_alloc_file(args.alloc_file) if args.alloc_file else \
            hosts_of_topology(args.topology, args.prefix)
        slot_of = read_mapping(args.mapping) if args.mapping else list(range(args.identity))
        lines = hostfile_lines(node_hosts, args.ppn, slot_of)
    except (HostfileError, ValueError) as e:
        print(f"hostfile.py: {e}", file=sys.stderr)
        return 1
    with open(args.output, "w") as f:
        f.write("".join(h + "\n" for h in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
