#!/usr/bin/env python3
"""Runs the SMPI programs under rankmap's and Scotch's mappings on SimGrid fat-trees and dragonflies
(issue 17), with experiment.py's machinery: the identity run records each program's own graph, every
mapping is `rankmap map` of that graph, host files come from `rankmap emit --format smpi-hostfile`
(checked byte for byte against hostfile.py), `rankmap eval --json` scores each mapping, and every
result is appended to OUT/results.jsonl, OUT/metrics.jsonl and OUT/mappings.jsonl; a rerun skips what
is already recorded.

The matrix runs in tiers, each over every platform/program pair before the next tier starts, so a run
stopped by --stop-at has the most important simulations: the identity, the default mapper and Scotch on
the fragmented allocations (the targets), then on the full ones, then the extra rows.

Usage: network_experiment.py --out OUT --bin BINDIR --rankmap PATH --helper PATH [--stop-at HH:MM]
                             [--only CONFIG[/PROGRAM]] [--tiers N]
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import experiment  # noqa: E402
import network_platform  # noqa: E402

# The torus experiment's programs and sizes (1,024 ranks, one iteration), with BT for the sweeps and the
# 27-point halo (26 neighbours: 6 faces, 12 edges, 8 corners).
PROGRAMS = {
    "halo3d": experiment.PROGRAMS["halo3d"],
    "halo27": ("halo3d", ["-n", "32", "-i", "1", "-s", "27"]),
    "cg": experiment.PROGRAMS["cg"],
    "bt": experiment.PROGRAMS["bt"],
    "allgather": experiment.PROGRAMS["allgather"],
    "fft2d": experiment.PROGRAMS["fft2d"],
}

FATTREE = "fattree:3;16,8,8;1,8,8;1,1,1"
DRAGONFLY = "dragonfly:8,2;4,1;8,1;4"
# SimGrid's own routing on each kind of network (docs/networks.md, "Routing by network").
SIMGRID_ROUTING = {"fattree": "dmodk", "dragonfly": "minimal"}

# 1,024 ranks on every platform: the whole machine with one rank per node, or 512 nodes of it that a
# busy scheduler hands out (topology::fragmented_nodes, seed 7) with two.
CONFIGS = {
    "fattree-frag": {"kind": "fragment", "network": FATTREE, "nodes": 512, "seed": 7, "ppn": 2},
    "dragonfly-frag": {"kind": "fragment", "network": DRAGONFLY, "nodes": 512, "seed": 7, "ppn": 2},
    "fattree-full": {"kind": "full", "network": FATTREE, "ppn": 1},
    "dragonfly-full": {"kind": "full", "network": DRAGONFLY, "ppn": 1},
}
FRAGMENTED = [c for c in CONFIGS if CONFIGS[c]["kind"] == "fragment"]
FULL = [c for c in CONFIGS if CONFIGS[c]["kind"] == "full"]

# name -> (rankmap algorithm, use SimGrid's routing, budget in ms, more options). The default comes
# first: `auto` as `rankmap map` runs it with its defaults (routing `default`, which is SimGrid's own on
# these networks since 2026-11-27: docs/decisions.md) at the runtime's 200 ms. Scotch runs on one
# thread, where its seeded result is reproducible; with two its multithreaded coarsening gave three
# different mappings in three runs of fattree-frag/halo27 (MCL 151552, 202000 and 161352). Since
# then the library runs Scotch on one thread whatever --threads says; the option stays for older builds.
ALGOS = {
    "auto@200ms": ("auto", False, "200", []),
    "scotch": ("scotch", False, "1000", ["--threads", "1"]),
    "tree~simgrid": ("tree", True, "1000", []),
}
MAPPINGS = ["identity"] + list(ALGOS)

# (mappings, configurations), run in this order.
TIERS = [
    (["identity", "auto@200ms", "scotch"], FRAGMENTED),
    (["identity", "auto@200ms", "scotch"], FULL),
    (["tree~simgrid"], FRAGMENTED + FULL),
]


def network_kind(config):
    return CONFIGS[config]["network"].partition(":")[0]


class NetworkExperiment(experiment.Experiment):
    def __init__(self, args):
        super().__init__(args)
        self.helper = os.path.abspath(args.helper)

    def platform(self, name):
        conf = CONFIGS[name]
        outdir = os.path.join(self.out, "platforms", name)
        if not os.path.exists(os.path.join(outdir, "alloc.txt")):
            spec = conf["network"]
            if conf["kind"] == "full":
                _, _, total = network_platform.parse_network(spec)
                network_platform.write_platform(outdir, spec, list(range(total)), f"all of {spec}, in node order")
            else:
                nodes = network_platform.fragment_nodes(self.helper, spec, conf["nodes"], conf["seed"])
                network_platform.write_platform(outdir, spec, nodes, f"{conf['nodes']} fragmented nodes of {spec}, "
                                                f"seed {conf['seed']}, in the scheduler's order")
        return {"dir": outdir, "xml": os.path.join(outdir, "platform.xml"), "alloc": os.path.join(outdir, "alloc.txt")}

    def mapping_names(self, conf, program):
        return [n for n in MAPPINGS if self.algos is None or n in self.algos or n == "identity"]

    def make_mapping(self, name, program, plat, conf, graph, tasks, workdir):
        if name not in ALGOS:
            return super().make_mapping(name, program, plat, conf, graph, tasks, workdir)
        if not self.tool.has("map"):
            return None
        path = os.path.join(workdir, experiment.safe(name) + ".map")
        algo, simgrid, budget, more = ALGOS[name]
        extra = (["--routing", SIMGRID_ROUTING[conf["network"].partition(":")[0]]] if simgrid else []) + more
        start = time.monotonic()
        status, stdout, stderr = self.tool.run("map", *experiment.job_args(plat, conf["ppn"], graph), "--algo", algo,
                                               "--time-budget-ms", budget, "--seed", "1", *extra, "-o", path,
                                               timeout=float(budget) / 1000 + experiment.MAP_TIMEOUT_S)
        seconds = round(time.monotonic() - start, 2)
        if status is None:
            experiment.log(f"rankmap map --algo {name}: {stderr}")
            return {"file": None, "hashed": True, "note": stderr, "failed": True, "map_seconds": seconds}
        if status != 0:
            experiment.log(f"rankmap map --algo {name} failed: {stderr.strip()[-300:]}")
            return None
        return {"file": path, "hashed": True, "log": stdout.strip()[-2000:], "map_seconds": seconds,
                "options": " ".join(["--algo", algo, "--time-budget-ms", budget, *extra])}

    def evaluate(self, key, plat, conf, graph, mapping_file):
        """`rankmap eval --json` under SimGrid's routing (the `mcl` field; mcl_<routing> has every routing)."""
        if self.metrics.get(*key) or not self.tool.has("eval"):
            return
        routing = SIMGRID_ROUTING[conf["network"].partition(":")[0]]
        status, stdout, stderr = self.tool.run("eval", *experiment.job_args(plat, conf["ppn"], graph), "--mapping",
                                               mapping_file, "--routing", routing, "--json")
        if status != 0:
            raise SystemExit(f"network_experiment: rankmap eval failed on {mapping_file}: {stderr}")
        row = experiment.json.loads(stdout)
        row.update({"config": key[0], "program": key[1], "mapping": key[2]})
        self.metrics.add(row)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True)
    parser.add_argument("--bin", required=True, help="directory of the smpicc-built programs")
    parser.add_argument("--rankmap", help="the rankmap tool")
    parser.add_argument("--helper", required=True, help="smpi_fragmented_nodes (bench/smpi/fragmented_nodes.cpp)")
    parser.add_argument("--only", action="append", help="CONFIG or CONFIG/PROGRAM; repeatable")
    parser.add_argument("--tiers", type=int, default=len(TIERS), help="run only the first N tiers")
    parser.add_argument("--stop-at", help="UTC time HH:MM after which no simulation starts")
    args = parser.parse_args(argv)
    args.preload = None
    args.recorded_phases = None
    args.algos = None
    experiment.PROGRAMS.update(PROGRAMS)
    experiment.CONFIGS.clear()
    experiment.CONFIGS.update(CONFIGS)
    exp = NetworkExperiment(args)
    wanted = set(args.only or [])
    for mappings, configs in TIERS[:args.tiers]:
        exp.algos = mappings
        for config in configs:
            for program in PROGRAMS:
                if wanted and config not in wanted and f"{config}/{program}" not in wanted:
                    continue
                if exp.stopped:
                    break
                exp.run_program(config, program)
    if exp.host_files_checked and exp.tool.has("emit"):
        experiment.log(f"{exp.host_files_checked} simulated host files equal what rankmap emit writes now")
        with open(os.path.join(exp.out, "emit-check.json"), "w") as f:
            experiment.json.dump({"host_files": exp.host_files_checked}, f)
    with open(os.path.join(exp.out, "experiment.json"), "w") as f:
        experiment.json.dump({"stopped": exp.stopped}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
