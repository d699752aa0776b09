#!/usr/bin/env python3
"""Tunes the anneal mapper's constants on phased sweeps that are not the reported instances.

The anneal score's constants (the starting temperature, the weight of the channels at a phase's MCL
and that of the squared loads; docs/algorithms.md, `anneal`) were first set on NAS-BT's seven phases
on torus:8x8x8, an instance the SMPI tables report. This script measures every combination of a
grid of values on a *training* set of sweeps of other sizes and networks, and then a few chosen
combinations on the *held-out* instances (BT and SP as the SMPI experiment runs them on its three
platforms), so that no constant is chosen on what is reported.

The anneal build must read the constants from RANKMAP_TUNE_T0, RANKMAP_TUNE_COUNT and
RANKMAP_TUNE_SQUARES: bench/results/anneal-tuning-*/tuning.patch is the patch used. Runs use
`emahd+anneal:N` (the chain the SMPI experiment runs) with N = ATTEMPTS_PER_TASK x tasks swap
attempts, so results depend on the seed only, not on the machine's load. Each row is the phased MCL
under dimension-ordered routing (the experiment's `--routing dor`) over the launcher's order's.

  anneal_tuning.py --rankmap TUNED_TOOL --out DIR training
  anneal_tuning.py --rankmap TUNED_TOOL --out DIR heldout --smpi-runs RUN_DIR --settings T0,COUNT,SQUARES ...

RUN_DIR is an SMPI experiment's output directory (runs/PLATFORM/{bt,sp}/graph.mtx, platforms/).
"""
import argparse
import csv
import itertools
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "smpi"))
import sweep_phases  # noqa: E402
from sweep_phases import WIDTHS, phases_of  # noqa: E402

ATTEMPTS_PER_TASK = 2000
SWEEP_N = 8  # grid points per cell edge, as the SMPI experiment's sweep runs; scales bytes only

# Training: (variant, q, topology, ppn). None of them is a reported instance (q = 32 on the SMPI
# platforms), and they cover a torus, a mesh and an uneven torus, one and two processes per node.
TRAINING = [
    ("bt", 16, "torus:4x4x8", 2),
    ("sp", 16, "mesh:4x8x8", 1),
    ("bt", 24, "torus:6x6x8", 2),
    ("sp", 24, "torus:8x8x9", 1),
]
T0 = [0.0, 1e-4, 2e-4, 4e-4]
WEIGHTS = [(1.7, 0.3), (0.0, 0.0), (1.7, 0.0), (0.0, 0.3)]

# Held-out: the SMPI experiment's platforms (bench/smpi/experiment.py), with q = 32.
HELDOUT_PLATFORMS = {"8x8x8": ["--topology", "torus:8x8x8", "--ppn", "2"],
                     "4x4x4x4x2": ["--topology", "torus:4x4x4x4x2", "--ppn", "2"],
                     "fragmented": None}  # the experiment's alloc.txt


def write_mtx(path, tasks, edges):
    with open(path, "w") as f:
        f.write(f"%%MatrixMarket matrix coordinate real general\n{tasks} {tasks} {len(edges)}\n")
        f.writelines(f"{a + 1} {b + 1} {w:.17g}\n" for (a, b), w in sorted(edges.items()))


def write_sweep(directory, variant, q):
    """The sweep's graph and its seven phases as files; returns (graph, [phase files])."""
    os.makedirs(directory, exist_ok=True)
    phases = phases_of(q, SWEEP_N, *WIDTHS[variant])
    total = {}
    files = []
    for k, phase in enumerate(phases, start=1):
        files.append(os.path.join(directory, f"phase{k}.mtx"))
        write_mtx(files[-1], q * q, phase)
        for key, w in phase.items():
            total[key] = total.get(key, 0.0) + w
    graph = os.path.join(directory, "graph.mtx")
    write_mtx(graph, q * q, total)
    return graph, files


def phased_mcl(tool, graph, phases, where, mapping=None):
    cmd = [tool, "eval", "--graph", graph, *where, "--phases", ",".join(phases), "--routing", "dor", "--json"]
    if mapping:
        cmd += ["--mapping", mapping]
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    return float(out["mcl_phased"])


def mapped_ratio(tool, graph, phases, where, algo, env, workdir):
    mapping = os.path.join(workdir, "last.map")
    subprocess.run([tool, "map", "--graph", graph, *where, "--phases", ",".join(phases), "--routing", "dor",
                    "--algo", algo, "--time-budget-ms", "1e9", "--threads", "1", "-o", mapping],
                   check=True, env=env, capture_output=True)
    return phased_mcl(tool, graph, phases, where, mapping) / phased_mcl(tool, graph, phases, where)


def anneal_ratio(tool, graph, phases, where, tasks, setting, workdir):
    """emahd+anneal's result with these constants; setting None: emahd's start alone."""
    if setting is None:
        return mapped_ratio(tool, graph, phases, where, "emahd", dict(os.environ), workdir)
    t0, count, squares = setting
    env = dict(os.environ, RANKMAP_TUNE_T0=repr(t0), RANKMAP_TUNE_COUNT=repr(count), RANKMAP_TUNE_SQUARES=repr(squares))
    return mapped_ratio(tool, graph, phases, where, f"emahd+anneal:{ATTEMPTS_PER_TASK * tasks}", env, workdir)


def run(tool, instances, settings, out_csv, workdir):
    with open(out_csv, "w", newline="") as f:
        rows = csv.writer(f)
        rows.writerow(["instance", "t0", "count_weight", "squares_weight", "phased_mcl_over_identity"])
        for name, graph, phases, where, tasks in instances:
            for setting in [None, *settings]:
                ratio = anneal_ratio(tool, graph, phases, where, tasks, setting, workdir)
                rows.writerow([name, *(setting or ("start (emahd)", "", "")), f"{ratio:.4f}"])
                f.flush()
                print(name, setting, f"{ratio:.4f}", flush=True)


def training_instances(workdir):
    out = []
    for variant, q, topology, ppn in TRAINING:
        directory = os.path.join(workdir, f"{variant}-{q}-{topology.replace(':', '_')}")
        graph, phases = write_sweep(directory, variant, q)
        out.append((f"{variant} q={q} on {topology} ppn{ppn}", graph, phases,
                    ["--topology", topology, "--ppn", str(ppn)], q * q))
    return out


def heldout_instances(workdir, smpi_runs):
    out = []
    for platform, where in HELDOUT_PLATFORMS.items():
        if where is None:
            where = ["--alloc-file", os.path.join(smpi_runs, "platforms", platform, "alloc.txt"), "--ppn", "2"]
        for variant in ("bt", "sp"):
            graph = os.path.join(smpi_runs, "runs", platform, variant, "graph.mtx")
            prefix = os.path.join(workdir, f"{variant}-{platform}-phase")
            # sweep_phases refuses phases that do not add up to the graph the program recorded.
            sweep_phases.main(["--q", "32", "--n", str(SWEEP_N), "--variant", variant, "--graph", graph, "--out", prefix])
            phases = [f"{prefix}{k}.mtx" for k in range(1, 8)]
            out.append((f"{variant} on {platform}", graph, phases, where, 1024))
    return out


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rankmap", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("set", choices=["training", "heldout"])
    parser.add_argument("--smpi-runs")
    parser.add_argument("--settings", nargs="*", default=[])
    args = parser.parse_args(argv)
    workdir = os.path.join(args.out, "work")
    os.makedirs(workdir, exist_ok=True)
    if args.set == "training":
        run(args.rankmap, training_instances(workdir), [(t, c, s) for t, (c, s) in itertools.product(T0, WEIGHTS)],
            os.path.join(args.out, "training.csv"), workdir)
    else:
        settings = [tuple(float(v) for v in s.split(",")) for s in args.settings]
        run(args.rankmap, heldout_instances(workdir, args.smpi_runs), settings,
            os.path.join(args.out, "heldout.csv"), workdir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
