#!/usr/bin/env python3
"""Writes the "Simulated network: fat-trees and dragonflies (issue 17)" section of BENCHMARKS.md from one
run of network_experiment.py (bench/smpi/run_networks.sh).

Reads OUT/results.jsonl, OUT/metrics.jsonl, OUT/mappings.jsonl, OUT/verify.md and OUT/run.json (commit,
times, load) and writes: issue 17's targets on the fragmented pairs (the default row, auto@200ms, against
the identity and against Scotch), the route and contention checks, per platform the simulated
communication time, the total time and rankmap's MCL under SimGrid's routing of every mapping against
the identity's, the mapping times, the simulation cost and what did not run. Every number comes from
those files.

Usage: network_report.py --out OUT --benchmarks BENCHMARKS.md [--print-only]
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from replace_section import replace_section  # noqa: E402
from report import load, spearman  # noqa: E402
from network_experiment import (ALGOS, CONFIGS, FRAGMENTED, FULL, MAPPINGS, PROGRAMS, SIMGRID_ROUTING,  # noqa: E402
                                network_kind)

HEADING = "## Simulated network: fat-trees and dragonflies (issue 17)"
DEFAULT = "auto@200ms"
PEER = "scotch"
GAIN, HARM = 0.8, 1.02  # at least 20% faster; at most 2% slower
GAIN_NEEDED, PEER_NEEDED = 8, 10


def winner(record):
    found = re.search(r"algorithm\s+(\S+)", (record or {}).get("log", ""))
    return found.group(1) if found else "?"


class Report:
    def __init__(self, out):
        self.out = out
        self.results = load(os.path.join(out, "results.jsonl"))
        self.metrics = load(os.path.join(out, "metrics.jsonl"))
        self.mappings = load(os.path.join(out, "mappings.jsonl"))
        with open(os.path.join(out, "run.json")) as f:
            self.run = json.load(f)
        self.lines = []

    def emit(self, text=""):
        self.lines.append(text)

    def ratio(self, config, program, mapping, field="comm_time", store=None):
        store = self.results if store is None else store
        base, row = store.get((config, program, "identity")), store.get((config, program, mapping))
        if not base or not row or not base.get(field):
            return None
        return row[field] / base[field]

    def cell(self, config, program, mapping, field="comm_time", store=None):
        r = self.ratio(config, program, mapping, field, store)
        if r is None:
            record = self.mappings.get((config, program, mapping))
            if record and record.get("failed"):
                return "mapper stopped"
            return "not run"
        row = (store or self.results).get((config, program, mapping))
        same = row.get("same_placement_as") if store is None else None
        return f"{r:.2f}" + (f" (= {same})" if same and mapping != "identity" else "")

    def header(self):
        run = self.run
        partial = run.get("stopped") or any((c, p, m) not in self.results for c in CONFIGS for p in PROGRAMS
                                            for m in MAPPINGS)
        self.emit(HEADING)
        self.emit("")
        self.emit(f"One run of `bench/smpi/run_networks.sh` at commit {run['commit']} ({run['date']}, "
                  f"{run['start']} to {run['end']} UTC{', stopped by its stop time' if run.get('stopped') else ''}); "
                  f"every simulation and mapper under `nice -n 19` on {run['cores']} cores shared with other work "
                  f"(load average {run['load_start']} at the start, {run['load_end']} at the end); the 200 ms "
                  "budgets are wall-clock time. Raw results: "
                  f"`{run['results_dir']}/` (`python3 bench/smpi/network_report.py --out {run['results_dir']} "
                  "--benchmarks BENCHMARKS.md` rewrites this section from them)."
                  + (" **Partial:** some planned simulations did not run (listed at the end)." if partial else ""))
        self.emit("")
        frag = CONFIGS[FRAGMENTED[0]]
        self.emit(
            "SimGrid 3.32 SMPI, set up as for the tori (docs/smpi.md, `smpi_run.py`: CM02 max-min flow model, no "
            "cross-traffic, computation charged explicitly), simulates each program on one SimGrid cluster written "
            "by `bench/smpi/network_platform.py`: "
            f"`<cluster topology=\"FAT_TREE\">` for `{CONFIGS['fattree-full']['network']}` (16 nodes per leaf switch "
            "with 8 up links: 2:1 tapered above the leaves, 1:1 above; 1,024 nodes) and "
            f"`<cluster topology=\"DRAGONFLY\">` for `{CONFIGS['dragonfly-full']['network']}` (8 groups of 4 chassis "
            "of 8 routers, 4 nodes per router, 2 parallel global links per pair of groups; 1,024 nodes). "
            "**Link model** (smpi_platform.py's constants, the tori's): every link 1.8 GB/s per direction "
            "(`bw=\"1.8GBps\"`, `sharing_policy=\"SPLITDUPLEX\"`, one Blue Gene/Q torus link's payload), zero latency "
            "(`lat=\"0\"`, so flows share links max-min fairly, not by route length); SimGrid joins the dragonfly's "
            "parallel links into one of twice the bandwidth, as rankmap's capacity 2 does; loopback 8 GB/s and "
            "100 ns for ranks on one node; 16 cores of 1.6 Gflop/s per node. SimGrid routes statically: D-mod-K "
            "(`dmodk`) on the fat-tree, its `minimal` route on the dragonfly.")
        self.emit("")
        self.emit(
            "**Allocations**, 1,024 ranks each: `*-full` is the whole machine, one rank per node, in node order "
            f"(the scheduler's); `*-frag` is the {frag['nodes']} nodes a busy first-fit scheduler hands out "
            f"(`topology::fragmented_nodes`, seed {frag['seed']}, the generator of the section *Fat-trees and "
            f"dragonflies* above; `bench/smpi/fragmented_nodes.cpp` prints them), {frag['ppn']} ranks per node. "
            "**Programs** (docs/smpi.md, sized as on the tori, one iteration): halo3d (7-point halo, 6 neighbours), "
            "halo27 (`halo3d -s 27`: 26 neighbours, faces, edges and corners), cg, bt (the sweep program; its SP "
            "variant is left out), allgather, fft2d. Each program's graph is what it sent in the identity run. "
            "**Mappings**, `rankmap map --algo A --seed 1` on that graph and the allocation file: "
            f"`{DEFAULT}` is the default, `auto` exactly as `rankmap map` runs it (objective MCL under the "
            "network's default routing, which is SimGrid's: `dmodk` on the fat-tree, `minimal` on the dragonfly) "
            "with `--time-budget-ms 200`, the runtime's budget; `scotch` is Scotch's static mapping "
            "(tree-leaf architecture, one thread, so that the seeded result is reproducible); `tree~simgrid` is the tree mapper with SimGrid's routing and 1 s. Every row is one "
            "mapping, none is a best of several. Host files: `rankmap emit --format smpi-hostfile`, checked byte "
            "for byte against `bench/smpi/hostfile.py`" + self.emit_check() + ". Every program checks its own "
            "results; every run below passed. Ratios are against the identity (the launcher's order) on the same "
            "platform; lower is better.")
        self.emit("")

    def emit_check(self):
        path = os.path.join(self.out, "emit-check.json")
        if not os.path.exists(path):
            return ""
        with open(path) as f:
            return f" (the run re-derived the host files of {json.load(f)['host_files']} recorded simulations)"

    def targets(self):
        self.emit("### Issue 17's targets: the default row on the fragmented allocations")
        self.emit("")
        self.emit("Simulated communication time / identity's. Gain: `auto@200ms` at least 20% faster than the "
                  f"identity on at least {GAIN_NEEDED} of the 12 pairs; Harm: no pair more than 2% slower; Peer: "
                  f"`auto@200ms` faster than `scotch` on at least {PEER_NEEDED} of 12.")
        self.emit("")
        self.emit("| platform | program | identity comm (ms) | auto@200ms | scotch | auto's winning start | gain | harm | "
                  "peer |")
        self.emit("|---|---|---:|---:|---:|---|:-:|:-:|:-:|")
        counts = {"gain": 0, "harm": [], "peer": 0, "pairs": 0, "peer_pairs": 0}
        for config in FRAGMENTED:
            for program in PROGRAMS:
                base = self.results.get((config, program, "identity"))
                auto = self.ratio(config, program, DEFAULT)
                scotch = self.ratio(config, program, PEER)
                if base is None or auto is None:
                    ident = "—" if base is None else f"{base['comm_time'] * 1e3:.3f}"
                    self.emit(f"| {config} | {program} | {ident} | not run | {self.cell(config, program, PEER)} | | "
                              "not run | not run | not run |")
                    continue
                counts["pairs"] += 1
                gain = auto <= GAIN
                harm = auto > HARM
                counts["gain"] += gain
                if harm:
                    counts["harm"].append(f"{config}/{program} ({auto:.2f}{self.mcl_note(config, program, DEFAULT)})")
                peer = "not run"
                if scotch is not None:
                    counts["peer_pairs"] += 1
                    counts["peer"] += auto < scotch
                    peer = "yes" if auto < scotch else ("tie" if auto == scotch else "**no**")
                self.emit(f"| {config} | {program} | {base['comm_time'] * 1e3:.3f} | {auto:.2f} | "
                          f"{self.cell(config, program, PEER)} | {winner(self.mappings.get((config, program, DEFAULT)))} | "
                          f"{'yes' if gain else '**no**'} | {'**slower**' if harm else 'ok'} | {peer} |")
        self.emit("")
        total = len(FRAGMENTED) * len(PROGRAMS)
        ran = counts["pairs"]
        missing = f" ({total - ran} of {total} pairs not run)" if ran < total else ""

        def verdict(met, complete):
            return "**met**" if met else ("**missed**" if complete else "**not met so far**")
        gain_met = counts["gain"] >= GAIN_NEEDED
        self.emit(f"- Gain: {counts['gain']} of {total} pairs at least 20% faster than the identity{missing}: "
                  f"{verdict(gain_met, ran == total or counts['gain'] + total - ran < GAIN_NEEDED)} "
                  f"(target {GAIN_NEEDED} of {total}).")
        harm_text = ", ".join(counts["harm"]) if counts["harm"] else "none"
        self.emit(f"- Harm: pairs more than 2% slower than the identity: {harm_text}: "
                  f"{'**met**' if not counts['harm'] and ran == total else ('**missed**' if counts['harm'] else '**not complete**')}"
                  f" (target none).")
        peer_ran = counts["peer_pairs"]
        self.emit(f"- Peer: `auto@200ms` faster than `scotch` on {counts['peer']} of {total} pairs"
                  + (f" ({total - peer_ran} not run)" if peer_ran < total else "") + ": "
                  f"{verdict(counts['peer'] >= PEER_NEEDED, peer_ran == total or counts['peer'] + total - peer_ran < PEER_NEEDED)}"
                  f" (target {PEER_NEEDED} of {total}).")
        self.summary(DEFAULT, FULL, "On the full allocations (not part of the targets): `auto@200ms`")
        for extra in [m for m in ALGOS if m not in (DEFAULT, PEER)]:
            self.summary(extra, FRAGMENTED, f"Not the default, for comparison: `{extra}` on the fragmented allocations")
        self.emit("")

    def mcl_note(self, config, program, mapping):
        """`; MCL adaptive x, MCL <SimGrid's routing> y of the identity's`, for a slower pair."""
        met, base = self.metrics.get((config, program, mapping)), self.metrics.get((config, program, "identity"))
        if not met or not base:
            return ""
        routing = SIMGRID_ROUTING[network_kind(config)]
        return (f"; its MCL under adaptive {met['mcl_adaptive'] / base['mcl_adaptive']:.2f} and under {routing} "
                f"{met['mcl'] / base['mcl']:.2f} of the identity's")

    def summary(self, mapping, configs, text):
        """One bullet: how often `mapping` cut 20%, lost more than 2%, beat Scotch, on the pairs that ran."""
        pairs = [(c, p, self.ratio(c, p, mapping), self.ratio(c, p, PEER)) for c in configs for p in PROGRAMS]
        pairs = [x for x in pairs if x[2] is not None]
        if not pairs:
            return
        slower = [f"{c}/{p} ({a:.2f}{self.mcl_note(c, p, mapping)})" for c, p, a, _ in pairs if a > HARM]
        self.emit(f"- {text}: at least 20% faster than the identity on {sum(a <= GAIN for _, _, a, _ in pairs)} of "
                  f"{len(pairs)} pairs that ran, more than 2% slower on {len(slower)}"
                  f"{' (' + ', '.join(slower) + ')' if slower else ''}, faster than `scotch` on "
                  f"{sum(1 for _, _, a, s in pairs if s is not None and a < s)} of "
                  f"{sum(1 for x in pairs if x[3] is not None)}.")

    def verify(self):
        path = os.path.join(self.out, "verify.md")
        if not os.path.exists(path):
            return
        self.emit("### SimGrid's fat-tree and dragonfly are the networks rankmap models")
        self.emit("")
        self.emit("`bench/smpi/verify_networks.py`: every route of both platforms compared link by link with "
                  "rankmap's model of SimGrid's routing (`simgrid_routes`, from tests/topology), and timed 100 MB "
                  "transfers on the benchmark's platform.xml against rankmap's MCL of the same flows.")
        self.emit("")
        with open(path) as f:
            self.emit(f.read().strip())
        self.emit("")

    def platform_tables(self):
        for config in CONFIGS:
            conf = CONFIGS[config]
            programs = [p for p in PROGRAMS if (config, p, "identity") in self.results]
            if not programs:
                continue
            desc = conf["network"] + (f", {conf['nodes']} fragmented nodes (seed {conf['seed']})"
                                      if conf["kind"] == "fragment" else ", all nodes in node order")
            self.emit(f"### {config}: {desc}, {conf['ppn']} rank{'s' if conf['ppn'] > 1 else ''} per node")
            self.emit("")
            routing = SIMGRID_ROUTING[network_kind(config)]
            for title, field, store, base_text in [
                    ("Simulated communication time / identity's", "comm_time", None, "identity, simulated ms"),
                    ("Total simulated time / identity's", "total_time", None, "identity, simulated ms"),
                    (f"rankmap's MCL under SimGrid's routing (`{routing}`) / identity's", "mcl", self.metrics,
                     "identity, MCL (bytes)")]:
                self.emit(f"{title}:")
                self.emit("")
                self.emit("| mapping | " + " | ".join(programs) + " |")
                self.emit("|---|" + "---:|" * len(programs))
                src = self.results if store is None else store
                base = [src.get((config, p, "identity")) for p in programs]
                scale = 1e3 if store is None else 1
                fmt = "{:.3f}" if store is None else "{:.0f}"
                self.emit(f"| {base_text} | " + " | ".join("—" if b is None else fmt.format(b[field] * scale)
                                                            for b in base) + " |")
                for m in MAPPINGS[1:]:
                    self.emit(f"| {m} | " + " | ".join(self.cell(config, p, m, field, store) for p in programs) + " |")
                self.emit("")

    def prediction(self):
        """How well rankmap's MCL (SimGrid's routing, and adaptive) orders the simulated communication times."""
        self.emit("### How well rankmap's MCL predicts the simulated communication time")
        self.emit("")
        self.emit("Spearman rank correlation, per platform, between a mapping's MCL / identity's and its simulated "
                  "communication time / identity's, over every simulated placement of every program (placements "
                  "that repeat another's host file counted once). +1: the metric orders the placements as the "
                  "simulator does.")
        self.emit("")
        self.emit("| platform | placements | MCL, SimGrid's routing | MCL, adaptive | hop-bytes |")
        self.emit("|---|---:|---:|---:|---:|")
        for config in CONFIGS:
            points = []
            for (c, p, m), row in self.results.items():
                met, base = self.metrics.get((c, p, m)), self.metrics.get((c, p, "identity"))
                if c != config or m == "identity" or row.get("same_placement_as") or not met or not base:
                    continue
                points.append((self.ratio(c, p, m), met["mcl"] / base["mcl"], met["mcl_adaptive"] / base["mcl_adaptive"],
                               met["hop_bytes"] / base["hop_bytes"]))
            if len(points) < 3:
                continue
            times = [x[0] for x in points]
            rhos = [spearman([x[i] for x in points], times) for i in (1, 2, 3)]
            self.emit(f"| {config} | {len(points)} | " + " | ".join("—" if r is None else f"{r:+.2f}" for r in rhos)
                      + " |")
        self.emit("")

    def mapping_times(self):
        self.emit("### Time to compute each mapping (wall seconds, `rankmap map` under nice 19 on the shared machine)")
        self.emit("")
        self.emit("| platform | " + " | ".join(f"{m}" for m in ALGOS) + " |")
        self.emit("|---|" + "---:|" * len(ALGOS))
        for config in CONFIGS:
            cells = []
            for m in ALGOS:
                times = [r["map_seconds"] for k, r in self.mappings.items() if k[0] == config and k[2] == m
                         and not r.get("failed")]
                cells.append(f"{min(times):.2f} to {max(times):.2f}" if times else "—")
            self.emit(f"| {config} | " + " | ".join(cells) + " |")
        self.emit("")

    def cost(self):
        self.emit("### Simulation cost")
        self.emit("")
        self.emit("| platform | simulations | CPU s (median) | CPU s (max) | peak memory MB (max) |")
        self.emit("|---|---:|---:|---:|---:|")
        for config in CONFIGS:
            rows = [r for k, r in self.results.items() if k[0] == config and not r.get("same_placement_as")]
            if not rows:
                continue
            cpu = sorted(r["sim_cpu_s"] for r in rows)
            self.emit(f"| {config} | {len(rows)} | {cpu[len(cpu) // 2]:.1f} | {cpu[-1]:.1f} | "
                      f"{max(r['sim_peak_mb'] for r in rows):.0f} |")
        self.emit("")

    def not_run(self):
        self.emit("### What did not run")
        self.emit("")
        lines = []
        for config in CONFIGS:
            for program in PROGRAMS:
                missing = [m for m in MAPPINGS if (config, program, m) not in self.results]
                if missing:
                    lines.append(f"- {config} / {program}: " + ", ".join(missing))
        if lines:
            self.emit("Planned but not simulated before the run's stop time (rerunning `bench/smpi/run_networks.sh` "
                      "with the same OUT fills them in):")
            self.emit("")
            self.lines += lines
        else:
            self.emit("Everything planned ran.")
        self.emit("")

    def build(self):
        self.header()
        self.targets()
        self.verify()
        self.platform_tables()
        self.prediction()
        self.mapping_times()
        self.cost()
        self.not_run()
        return "\n".join(self.lines).rstrip() + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True)
    parser.add_argument("--benchmarks", required=True)
    parser.add_argument("--print-only", action="store_true")
    args = parser.parse_args(argv)
    section = Report(os.path.abspath(args.out)).build()
    if not args.print_only:
        replace_section(args.benchmarks, section)
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
