#!/usr/bin/env python3
"""Does a static figure tell the mappings that slow a lock-step program down from those that help?

  offset_phases.py OUT [--rankmap PATH] [--mappings auto@200ms,auto@10s] [--json FILE]

For every platform/program pair of an experiment folder OUT (experiment.py's), splits the recorded
graph into its rank offsets: phase d holds the edges i -> (i + d) mod P. Every such phase is a
partial permutation, and a program that communicates in lock-step permutation steps (the BT/SP
sweeps, the FFT's pairwise exchange "step t: send to me + t") runs exactly such phases one after
another. `rankmap eval --phases` then gives, per mapping, the sum over the offsets of each offset's
dimension-ordered MCL. The table sets that figure's ratio to the identity's beside the aggregate
ratios and the simulated communication time, so one can see whether it separates harm from help.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import experiment  # noqa: E402
import sweep_phases  # noqa: E402


def write_offset_phases(graph, tasks, folder):
    """Writes one Matrix Market file per rank offset; returns their paths."""
    by_offset = defaultdict(dict)
    for (i, j), w in sweep_phases.read_mtx(graph).items():
        by_offset[(j - i) % tasks][(i, j)] = w
    paths = []
    for offset, edges in sorted(by_offset.items()):
        path = os.path.join(folder, f"offset{offset}.mtx")
        with open(path, "w") as f:
            f.write(f"%%MatrixMarket matrix coordinate real general\n{tasks} {tasks} {len(edges)}\n")
            f.writelines(f"{i + 1} {j + 1} {w:.17g}\n" for (i, j), w in sorted(edges.items()))
        paths.append(path)
    return paths


def evaluate(rankmap, plat, ppn, graph, mapping, phases):
    command = [rankmap, "eval", "--graph", graph, "--alloc-file", plat["alloc"], "--ppn", str(ppn),
               "--routing", "dor", "--json", "--phases", ",".join(phases)]
    if mapping:
        command += ["--mapping", mapping]
    row = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    return row["mcl_phased"], row["mcl_dor"], row["mcl_adaptive"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--rankmap", default="rankmap")
    parser.add_argument("--mappings", default="auto@200ms,auto@10s")
    parser.add_argument("--json", help="also write the rows here, one JSON object per line")
    args = parser.parse_args()
    results = {(r["config"], r["program"], r["mapping"]): r
               for r in map(json.loads, open(os.path.join(args.out, "results.jsonl")))}
    mappings = {(r["config"], r["program"], r["mapping"]): r
                for r in map(json.loads, open(os.path.join(args.out, "mappings.jsonl")))}
    rows = []
    print("| platform | program | mapping | offsets | offset-phased DOR | aggregate DOR | aggregate adaptive | simulated |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for (config, program, mapping), result in sorted(results.items()):
        if mapping not in args.mappings.split(","):
            continue
        identity = results.get((config, program, "identity"))
        graph = os.path.join(args.out, "runs", config, program, "graph.mtx")
        if not identity or not os.path.exists(graph) or (config, program, mapping) not in mappings:
            continue
        conf = experiment.CONFIGS[config]
        plat = {"alloc": os.path.join(args.out, "platforms", config, "alloc.txt")}
        with tempfile.TemporaryDirectory() as folder:
            row = mappings[(config, program, mapping)]
            phases = write_offset_phases(graph, row["tasks"], folder)
            base = evaluate(args.rankmap, plat, conf["ppn"], graph, None, phases)
            mine = evaluate(args.rankmap, plat, conf["ppn"], graph, row["file"], phases)
        ratios = [m / b for m, b in zip(mine, base)]
        time_ratio = result["comm_time"] / identity["comm_time"]
        rows.append({"config": config, "program": program, "mapping": mapping, "offsets": len(phases),
                     "offset_phased_dor": ratios[0], "aggregate_dor": ratios[1], "aggregate_adaptive": ratios[2],
                     "simulated": time_ratio})
        print(f"| {config} | {program} | {mapping} | {len(phases)} | {ratios[0]:.2f} | {ratios[1]:.2f} | "
              f"{ratios[2]:.2f} | {time_ratio:.2f} |", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)


if __name__ == "__main__":
    main()
