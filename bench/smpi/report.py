#!/usr/bin/env python3
"""Writes the "Simulated network (issue 7)" section of BENCHMARKS.md from an experiment's results.

Tables: per platform, the simulated communication time and the total simulated time of every
program under every mapping, divided by the identity's; the targets of issue 7; and how well
each metric of `rankmap eval` (MCL adaptive, MCL dor, hop-bytes) predicts the simulated
communication time, as Spearman rank correlations over the mappings of each program. With the
tool at hand it also draws the link loads of the identity and the best mapping of the 3D stencil.

Usage: report.py --out OUT --benchmarks BENCHMARKS.md [--rankmap PATH] [--image-dir DIR]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from replace_section import replace_section  # noqa: E402
from experiment import (CONFIGS, DIMORDERS, PHASED_ALGOS, PHASED_PROGRAMS, PROGRAMS, RANDOM_SKIPPED,  # noqa: E402
                        RANKMAP_ALGOS, safe)
import smpi_platform  # noqa: E402

HEADING = "## Simulated network (issue 7)"
# Mappings that are rankmap's own (the identity and the peers are not).
PEERS = {"identity", "treematch", "random", "scotch"}
METRICS = [("mcl_adaptive", "MCL (adaptive)"), ("mcl_dor", "MCL (dor)"), ("hop_bytes", "hop-bytes")]


def load(path):
    rows = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                row = json.loads(line)
                rows[(row["config"], row["program"], row["mapping"])] = row
    return rows


def ranks_of(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2
        i = j + 1
    return ranks


def spearman(xs, ys):
    """Spearman's rho (Pearson correlation of the ranks, ties averaged); None below 3 points or no spread."""
    if len(xs) < 3:
        return None
    rx, ry = ranks_of(xs), ranks_of(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return sxy / (sxx * syy) ** 0.5


def fmt_ratio(value):
    return "—" if value is None else f"{value:.2f}"


def map_seconds(record):
    if record is None:
        return "—"
    return f"> {record['map_seconds']:.0f} (stopped)" if record.get("failed") else f"{record['map_seconds']:.1f}"


def fmt_run(value):
    return "not run" if value is None else f"{value:.3f}"


def fmt_rho(value):
    return "—" if value is None else f"{value:+.2f}"


def mapping_order(config, program=None):
    """The mappings of a configuration, or those planned for one of its programs (the phased ones only
    where they apply, the random one only where it is not skipped)."""
    ndims = len(smpi_platform.parse_torus(CONFIGS[config]["topology"]))
    phased = [a for a, _, _ in PHASED_ALGOS] if program is None or program in PHASED_PROGRAMS else []
    random = ["random"] if program is None or program not in RANDOM_SKIPPED else []
    names = ["identity"] + DIMORDERS.get(ndims, []) + [a for a, _ in RANKMAP_ALGOS] + phased + ["treematch"] + random
    return [n for n in names if n in CONFIGS[config].get("mappings", names)]


class Report:
    def __init__(self, out):
        self.out = out
        self.results = load(os.path.join(out, "results.jsonl"))
        self.metrics = load(os.path.join(out, "metrics.jsonl"))
        self.mappings = load(os.path.join(out, "mappings.jsonl"))
        self.configs = [c for c in CONFIGS if any(k[0] == c for k in self.results)]
        self.lines = []

    def programs(self, config):
        return [p for p in PROGRAMS if (config, p, "identity") in self.results]

    def ratio(self, config, program, mapping, field):
        base = self.results.get((config, program, "identity"))
        row = self.results.get((config, program, mapping))
        if not base or not row or not base[field]:
            return None
        return row[field] / base[field]

    def best_rankmap(self, config, program):
        best = None
        for m in mapping_order(config, program):
            if m in PEERS:
                continue
            r = self.ratio(config, program, m, "comm_time")
            if r is not None and (best is None or r < best[1]):
                best = (m, r)
        return best

    def missing_cell(self, config, program, mapping):
        """'not run' when the mapping was planned but not simulated (out of time), '—' when it does not exist."""
        record = self.mappings.get((config, program, mapping))
        if record and record.get("failed"):
            return "mapper " + record["note"].replace("did not finish within", "stopped at")
        if mapping == "random" and program in RANDOM_SKIPPED:
            return "skipped (slow)"
        return "not run" if mapping in mapping_order(config, program) else "—"

    def emit(self, text=""):
        self.lines.append(text)

    def declined(self, config, program, mapping):
        """A peer that declined (treematch with more processes than cores) ran nothing: not a result."""
        record = self.mappings.get((config, program, mapping)) or {}
        return record.get("note", "").startswith("declined")

    def ratio_table(self, config, field, title):
        programs = self.programs(config)
        self.emit(f"{title}")
        self.emit("")
        self.emit("| mapping | " + " | ".join(programs) + " |")
        self.emit("|---|" + "---:|" * len(programs))
        ident = [self.results[(config, p, "identity")][field] for p in programs]
        self.emit("| identity, simulated ms | " + " | ".join(f"{v * 1e3:.3f}" for v in ident) + " |")
        for m in mapping_order(config):
            cells = []
            for p in programs:
                r = self.ratio(config, p, m, field)
                row = self.results.get((config, p, m))
                if self.declined(config, p, m):
                    cells.append("did not run (declined)")
                    continue
                best = self.best_rankmap(config, p)
                text = fmt_ratio(r) if r is not None else self.missing_cell(config, p, m)
                if r is not None and best and best[0] == m and field == "comm_time":
                    text = f"**{text}**"
                if row and row.get("same_placement_as") and m != "identity":
                    text += f" (= {row['same_placement_as']})"
                cells.append(text)
            if all(c == "—" for c in cells):
                cells = ["not available"] + [""] * (len(cells) - 1)
            elif all(c == "not run" or c.startswith("mapper ") for c in cells):
                continue  # listed under "What did not run"
            self.emit(f"| {m} | " + " | ".join(cells) + " |")
        self.emit("")

    def targets(self):
        self.emit("### Targets")
        self.emit("")
        self.emit("| platform | program | best rankmap mapping | comm / identity | ≥ 20% cut | scotch | treematch | "
                  "rankmap ≤ both |")
        self.emit("|---|---|---|---:|:-:|---:|---:|:-:|")
        self.verdicts = []
        for config in self.configs:
            for p in self.programs(config):
                best = self.best_rankmap(config, p)
                scotch = self.ratio(config, p, "scotch", "comm_time")
                tm = None if self.declined(config, p, "treematch") else self.ratio(config, p, "treematch", "comm_time")
                if best is None:
                    self.emit(f"| {config} | {p} | not run | | not run | {fmt_run(scotch)} | {fmt_run(tm)} "
                              "| not run |")
                    self.verdicts.append(("not run", "not run"))
                    continue
                cut = "pass" if best[1] <= 0.8 else "**MISSED**"
                peers = [v for v in (scotch, tm) if v is not None]
                beats = "pass" if peers and all(best[1] <= v * (1 + 1e-9) for v in peers) else (
                    "**MISSED**" if peers else "not run")
                self.verdicts.append((cut, beats))
                self.emit(f"| {config} | {p} | {best[0]} | {best[1]:.3f} | {cut} | {fmt_run(scotch)} | "
                          f"{fmt_run(tm)} | {beats} |")
        self.emit("")
        for index, target in enumerate(("≥ 20% cut of the communication time against the identity",
                                        "rankmap's best at least as fast as scotch and treematch")):
            counts = {v: sum(1 for pair in self.verdicts if pair[index] == v)
                      for v in ("pass", "**MISSED**", "not run")}
            overall = "MISSED" if counts["**MISSED**"] else ("pass" if counts["pass"] and not counts["not run"]
                                                            else "incomplete")
            self.emit(f"- {target}: **{overall}** ({counts['pass']} pass, {counts['**MISSED**']} missed, "
                      f"{counts['not run']} not run, over the platform/program pairs above).")
        self.emit("")

    def correlations(self):
        self.emit("### How well each metric predicts the simulated communication time")
        self.emit("")
        self.emit("Spearman rank correlation, over the distinct placements of each program (mappings that "
                  "gave the same host file as another are counted once), between the metric from "
                  "`rankmap eval --json` and the simulated communication time. +1 means the metric orders the "
                  "placements exactly as the simulator does.")
        self.emit("")
        self.emit("| platform | program | placements | " + " | ".join(t for _, t in METRICS) + " |")
        self.emit("|---|---|---:|" + "---:|" * len(METRICS))
        pooled = {k: [] for k, _ in METRICS}
        for config in self.configs:
            for p in self.programs(config):
                points = []
                for m in mapping_order(config, p):
                    row = self.results.get((config, p, m))
                    met = self.metrics.get((config, p, m))
                    if row and met and not (row.get("same_placement_as") and m != "identity"):
                        points.append((row["comm_time"], met))
                if len(points) < 3:
                    continue
                times = [t for t, _ in points]
                rhos = []
                for key, _ in METRICS:
                    rho = spearman([met[key] for _, met in points], times)
                    rhos.append(rho)
                    if rho is not None:
                        pooled[key].append(rho)
                self.emit(f"| {config} | {p} | {len(points)} | " + " | ".join(fmt_rho(r) for r in rhos) + " |")
        if any(pooled.values()):
            means = [sum(v) / len(v) if v else None for v in (pooled[k] for k, _ in METRICS)]
            self.emit("| **mean** | | | " + " | ".join(f"**{fmt_rho(m)}**" for m in means) + " |")
        self.emit("")

    def mapping_times(self):
        self.emit("### Time to compute each mapping (seconds, this 2-core machine, shared)")
        self.emit("")
        for config in self.configs:
            programs = self.programs(config)
            rows = []
            for m in mapping_order(config):
                cells = [map_seconds(self.mappings.get((config, p, m))) for p in programs]
                if m != "identity" and any(c != "—" for c in cells):
                    rows.append(f"| {m} | " + " | ".join(cells) + " |")
            if not rows:
                continue
            self.emit(f"{config}:")
            self.emit("")
            self.emit("| mapping | " + " | ".join(programs) + " |")
            self.emit("|---|" + "---:|" * len(programs))
            self.lines += rows
            self.emit("")

    def notes(self):
        tm_notes = sorted({r.get("note", "") for k, r in self.mappings.items() if k[2] == "treematch"})
        if tm_notes:
            self.emit("treematch: " + "; ".join(n for n in tm_notes if n) + ".")
            self.emit("")
        self.emit("### What did not run")
        self.emit("")
        lines = []
        for config in self.configs:
            for p in self.programs(config):
                missing = [m for m in mapping_order(config, p) if (config, p, m) not in self.results]
                if len(missing) == len(mapping_order(config, p)) - 1:
                    lines.append(f"- {config} / {p}: every mapping (only the identity ran)")
                elif missing:
                    lines.append(f"- {config} / {p}: " + ", ".join(
                        m + (f" ({self.mappings[(config, p, m)]['note']})"
                             if self.mappings.get((config, p, m), {}).get("failed") else "") for m in missing))
        if lines:
            self.emit("Planned but not simulated (the mapper was not available, or the simulation did not fit "
                      "in the time this section was generated in; rerunning `bench/smpi/run_all.sh` fills them in):")
            self.emit("")
            self.lines += lines
        else:
            self.emit("Everything planned ran.")
        self.emit("")

    def cost(self):
        self.emit("### Simulation cost")
        self.emit("")
        self.emit("| platform | ranks | simulations | CPU s (median) | CPU s (max) | peak memory MB (max) |")
        self.emit("|---|---:|---:|---:|---:|---:|")
        for config in self.configs:
            rows = [r for k, r in self.results.items() if k[0] == config and not r.get("same_placement_as")]
            cpu = sorted(r["sim_cpu_s"] for r in rows)
            ranks = max(r["ranks"] for r in rows)
            self.emit(f"| {config} | {ranks} | {len(rows)} | {cpu[len(cpu) // 2]:.1f} | {cpu[-1]:.1f} | "
                      f"{max(r['sim_peak_mb'] for r in rows):.0f} |")
        self.emit("")

    def picture(self, rankmap, image_dir, heading):
        """identity against the best rankmap mapping of halo3d on the first 3D platform, as PNG, in a
        file of the section's own, so that a partial run's section does not redraw the full matrix's."""
        config = next((c for c in self.configs if len(smpi_platform.parse_torus(CONFIGS[c]["topology"])) == 3
                       and (c, "halo3d", "identity") in self.results), None)
        if config is None or not rankmap or not os.path.exists(rankmap) or not shutil.which("rsvg-convert"):
            return None
        best = self.best_rankmap(config, "halo3d")
        if best is None:
            return None
        workdir = os.path.join(self.out, "runs", config, "halo3d")
        alloc = os.path.join(self.out, "platforms", config, "alloc.txt")
        svg = os.path.join(self.out, f"loads-{config}-halo3d.svg")
        command = [rankmap, "render", "--graph", os.path.join(workdir, "graph.mtx"), "--alloc-file", alloc,
                   "--ppn", str(CONFIGS[config]["ppn"]), "--mapping", os.path.join(workdir, "identity.map"),
                   "--mapping", os.path.join(workdir, safe(best[0]) + ".map"), "--routing", "dor", "-o", svg]
        if subprocess.run(command).returncode != 0:
            return None
        os.makedirs(image_dir, exist_ok=True)
        png = os.path.join(image_dir, image_name(heading))
        if subprocess.run(["rsvg-convert", "-o", png, svg]).returncode != 0:
            return None
        return png, config, best

    def emit_check(self):
        path = os.path.join(self.out, "emit-check.json")
        if not os.path.exists(path):
            return ""
        with open(path) as f:
            checked = json.load(f)["host_files"]
        return (f" (the last experiment run re-derived the host files of {checked} recorded simulations with "
                "`rankmap emit` and found each identical to the one simulated)")

    def host_file_writer(self, rankmap):
        help_text = ""
        if rankmap and os.path.exists(rankmap):
            help_text = subprocess.run([rankmap, "--help"], capture_output=True, text=True).stdout
        if "  emit" in help_text:
            return ("written by `rankmap emit --format smpi-hostfile` and checked byte for byte against "
                    "`bench/smpi/hostfile.py`" + self.emit_check())
        return ("written by `bench/smpi/hostfile.py` (DESIGN.md §8's convention; this tool has no "
                "`rankmap emit --format smpi-hostfile` yet)")

    def regenerate_command(self, heading):
        if heading == HEADING:
            return "bench/smpi/run_all.sh"
        only = " ".join(f"{c}/{p}" for c in self.configs for p in self.programs(c))
        return f'SMPI_ONLY="{only}" SMPI_HEADING="{heading[3:]}" bench/smpi/run_all.sh OUT'

    def build(self, rankmap, image_dir, benchmarks_dir, heading=HEADING):
        self.emit(heading)
        self.emit("")
        self.emit(f"Regenerate with `{self.regenerate_command(heading)}` "
                  "(setup, parameters and caveats: docs/smpi.md). "
                  "SimGrid 3.32 SMPI simulates each program on a torus of Blue Gene/Q-class links (1.8 GB/s "
                  "payload per direction, max-min fair sharing, dimension-ordered routing, dimension 0 first); "
                  f"placement is applied through the SMPI host file, {self.host_file_writer(rankmap)}. Every "
                  "program checks its own results, and every run below passed. Ratios are against the identity "
                  "(the launcher's order) on the same platform; lower is better; **bold** is the best rankmap "
                  "mapping; *not run* marks a planned simulation that has not run (listed at the end).")
        self.emit("")
        verify = os.path.join(self.out, "verify.md")
        if os.path.exists(verify):
            self.emit("### SimGrid's torus is the machine rankmap models")
            self.emit("")
            with open(verify) as f:
                self.emit(f.read().strip())
            self.emit("")
        for config in self.configs:
            conf = CONFIGS[config]
            desc = conf["topology"] + (f", {conf['nodes']} fragmented nodes (seed {conf['seed']})"
                                       if conf["kind"] == "fragment" else "")
            self.emit(f"### {config}: {desc}, {conf['ppn']} ranks per node")
            self.emit("")
            self.ratio_table(config, "comm_time", "Simulated communication time / identity's:")
            self.ratio_table(config, "total_time", "Total simulated time / identity's:")
        self.targets()
        self.correlations()
        self.notes()
        pic = self.picture(rankmap, image_dir, heading)
        if pic:
            png, config, best = pic
            rel = os.path.relpath(png, benchmarks_dir)
            self.emit(f"### Link loads of the 3D stencil on {config}: identity against {best[0]}")
            self.emit("")
            self.emit(f"![channel loads, identity vs {best[0]}]({rel})")
            self.emit("")
            self.emit("`rankmap render --routing dor` (SimGrid's routing), one panel per plane of dimension 0, "
                      "one colour scale for both; the hottest channel of each is outlined.")
            self.emit("")
        self.mapping_times()
        self.cost()
        return "\n".join(self.lines).rstrip() + "\n"


def image_name(heading):
    """The link-load picture of the section titled `heading`: the full matrix's keeps its old name."""
    if heading == HEADING:
        return "smpi_halo3d_loads.png"
    return "smpi_halo3d_loads_" + re.sub(r"[^a-z0-9]+", "_", heading[3:].lower()).strip("_") + ".png"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True)
    parser.add_argument("--benchmarks", required=True)
    parser.add_argument("--rankmap")
    parser.add_argument("--image-dir", default="docs/img")
    parser.add_argument("--heading", default=HEADING[3:],
                        help="title of the section written or replaced (default: %(default)s); another title "
                             "keeps a partial run's results apart from the full matrix's")
    args = parser.parse_args(argv)
    heading = "## " + args.heading
    report = Report(os.path.abspath(args.out))
    if not report.configs:
        raise SystemExit("report: no results yet")
    section = report.build(args.rankmap, os.path.abspath(args.image_dir),
                           os.path.dirname(os.path.abspath(args.benchmarks)), heading)
    replace_section(args.benchmarks, section)
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
