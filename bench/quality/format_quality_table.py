#!/usr/bin/env python3
"""Turns the CSV of bench/quality/quality_table into the "Mapping quality (issue 3)" section.

    format_quality_table.py CSV SECTION.md --machine TEXT --command TEXT --commit HASH

Ratios are each algorithm's value divided by the identity's on the same instance; a family's
figure is the geometric mean of the ratios over its instances. Cells that were skipped are
left out of the mean and counted in a footnote, failed cells are listed.
"""
import argparse
import csv
import math
import re
import statistics
from collections import defaultdict

ALLOCATION_FAMILIES = ["3D torus", "5D torus", "mesh", "fragmented"]
PATTERN_FAMILIES = ["stencil", "collective", "application", "random", "real"]
DEFAULT_CHAIN = "auto@runtime"


def read(path):
    with open(path) as f:
        settings = dict(kv.split("=", 1) for kv in f.readline().lstrip("# ").split())
        cells = list(csv.DictReader(f))
    for c in cells:
        for key in ("mcl_adaptive", "mcl_dor", "hop_bytes", "wall_ms", "cpu_ms", "budget_ms"):
            c[key] = float(c[key])
        for key in ("instance", "tasks", "slots", "ppn", "edges"):
            c[key] = int(c[key])
    return settings, cells


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def row_limits(cells):
    """What bounds each row: its wall-clock budget, and the task count above which it is skipped."""
    limits = defaultdict(list)
    for c in cells:
        if c["budget_ms"] > 0 and not limits[c["row"]]:
            limits[c["row"]].append(f"{c['budget_ms'] / 1000:g} s")
    for c in cells:
        cap = re.search(r"capped at (\d+) tasks", c["reason"]) if c["status"] == "skipped" else None
        if cap and f"≤ {int(cap.group(1)):,} tasks" not in limits[c["row"]]:
            limits[c["row"]].append(f"≤ {int(cap.group(1)):,} tasks")
    return limits


class Table:
    def __init__(self, cells):
        self.rows = list(dict.fromkeys(c["row"] for c in cells))
        self.limits = row_limits(cells)
        self.instances = {}
        self.cell = {}
        for c in cells:
            self.instances.setdefault(c["instance"], c)
            self.cell[(c["instance"], c["row"])] = c

    def families(self):
        fam = defaultdict(list)
        for i, c in self.instances.items():
            if self.cell[(i, "identity")]["status"] != "ok":
                continue
            fam[c["allocation_family"]].append(i)
            fam[c["pattern_family"]].append(i)
            fam["all"].append(i)
        return fam

    def ratio(self, instance, row, metric, base="identity"):
        c, b = self.cell[(instance, row)], self.cell[(instance, base)]
        if c["status"] != "ok" or b["status"] != "ok" or b[metric] <= 0:
            return None
        return max(c[metric], 1e-300) / b[metric]

    def family_mean(self, instances, row, metric, base="identity"):
        ratios = [self.ratio(i, row, metric, base) for i in instances]
        kept = [r for r in ratios if r is not None]
        return geomean(kept), len(ratios) - len(kept)


def row_name(t, row):
    """The row's label, with its limits in brackets: `emahd [1 s]`, `rahtm [≤ 2,048 tasks]`."""
    name = f"{row} [{', '.join(t.limits[row])}]" if t.limits[row] else row
    return f"**{name}**" if row == DEFAULT_CHAIN else name


def fmt_ratio(value, missing, total):
    if value is None:
        return "—"
    text = f"{value:.3f}"
    return text + (f" ({total - missing}/{total})" if missing else "")


def metric_table(t, fam, columns, metric):
    lines = ["| algorithm | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    for row in t.rows:
        cells = []
        for f in columns:
            value, missing = t.family_mean(fam[f], row, metric)
            text = fmt_ratio(value, missing, len(fam[f]))
            cells.append(f"**{text}**" if row == DEFAULT_CHAIN else text)
        lines.append(f"| {row_name(t, row)} | " + " | ".join(cells) + " |")
    return lines


def time_table(t, fam, columns):
    lines = ["| algorithm | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    for row in t.rows:
        cells = []
        for f in columns:
            times = [t.cell[(i, row)]["cpu_ms"] for i in fam[f] if t.cell[(i, row)]["status"] == "ok"]
            cells.append(f"{statistics.median(times):.0f} / {max(times):.0f}" if times else "—")
        lines.append(f"| {row_name(t, row)} | " + " | ".join(cells) + " |")
    return lines


def budget_notes(t):
    """How often each budgeted row ran out of its (wall-clock) budget rather than finishing its search."""
    out = []
    for row in t.rows:
        cells = [c for (i, r), c in t.cell.items() if r == row and c["status"] == "ok" and c["budget_ms"] > 0]
        if not cells:
            continue
        hit = sum(c["wall_ms"] >= 0.9 * c["budget_ms"] for c in cells)
        over = max(c["wall_ms"] / c["budget_ms"] for c in cells)
        out.append(f"- `{row}` ({cells[0]['budget_ms']:.0f} ms budget): used at least 90% of it on {hit} of "
                   f"{len(cells)} instances; largest wall time {over:.2f}× the budget.")
    return ["Budgeted rows (wall-clock):", ""] + out if out else []


def targets(t, fam, families):
    out = []
    frag, missing = t.family_mean(fam["fragmented"], DEFAULT_CHAIN, "mcl_adaptive")
    if frag is not None:
        verdict = "met" if frag <= 0.5 and not missing else "**missed**"
        out.append(f"- **MCL on the fragmented set**: geometric mean of `{DEFAULT_CHAIN}` MCL (adaptive) over the "
                   f"{len(fam['fragmented'])} fragmented instances = **{frag:.3f}×** the identity's "
                   f"(target ≤ 0.5×): {verdict}.")
    if "scotch" not in t.rows:
        out.append("- **Against Scotch**: not measured, `scotch` is not registered in this build.")
    else:
        out.append(f"- **Against Scotch** (geometric mean over the family of `{DEFAULT_CHAIN}` / `scotch`, per "
                   "instance; MCL must be < 1, hop-bytes ≤ 1.1):")
        out.append("")
        out.append("  | family | instances | MCL adaptive | MCL dor | hop-bytes | verdict |")
        out.append("  |---|---:|---:|---:|---:|---|")
        for f in families:
            mcl, m1 = t.family_mean(fam[f], DEFAULT_CHAIN, "mcl_adaptive", "scotch")
            dor, _ = t.family_mean(fam[f], DEFAULT_CHAIN, "mcl_dor", "scotch")
            hb, m2 = t.family_mean(fam[f], DEFAULT_CHAIN, "hop_bytes", "scotch")
            if mcl is None or hb is None:
                out.append(f"  | {f} | {len(fam[f])} | — | — | — | not measured |")
                continue
            ok = mcl < 1 and hb <= 1.1 and not m1 and not m2
            why = [] if ok else (["MCL not below Scotch's"] if mcl >= 1 else []) + \
                (["hop-bytes above 1.1× Scotch's"] if hb > 1.1 else []) + (["cells missing"] if m1 or m2 else [])
            out.append(f"  | {f} | {len(fam[f])} | {mcl:.3f} | {dor:.3f} | {hb:.3f} | "
                       f"{'met' if ok else '**missed**: ' + ', '.join(why)} |")
        out.append("")
    status = defaultdict(int)
    for c in t.cell.values():
        status[c["status"]] += 1
    verdict = "met" if status["failed"] == 0 else f"**missed: {status['failed']} failed cells** (listed below)"
    out.append(f"- **Correctness**: the driver checks that every result is a permutation of the instance's slots: "
               f"{status['ok']} cells valid, {status['failed']} failed, {status['skipped']} skipped (listed under "
               "*Skipped cells*; those are checked by `tests/mapping/validity_test.cpp` and "
               f"`offline_validity_test.cpp` on smaller instances instead): {verdict}.")
    out.append("- **Time** (mahd on 16,384 tasks, hilbert on 1,000,000 slots, refine's budget, emahd on 1,024 tasks): "
               "measured on one core by `bench/run_mapping_bench.sh`, in the section *Mapper speed (issue 3)* above; "
               "the times in this table are only indicative (wall-clock budgets on a shared machine).")
    return out


def losses(t, fam):
    """Instances where the runtime default loses to Scotch on MCL (adaptive)."""
    out = []
    if "scotch" not in t.rows:
        return out
    for i in fam["all"]:
        r = t.ratio(i, DEFAULT_CHAIN, "mcl_adaptive", "scotch")
        if r is not None and r > 1:
            c = t.instances[i]
            out.append((r, c))
    out.sort(key=lambda x: -x[0])
    return out


def single_rows(t):
    """The rows that run one algorithm (not auto, not the identity): the peers auto is compared with."""
    return [r for r in t.rows if r != "identity" and not r.startswith("auto")]


def default_checks(t, fam):
    """Per auto row: on how many instances its MCL is at most the identity's and at most the best single row's."""
    peers = single_rows(t)
    out = []
    for row in [r for r in t.rows if r.startswith("auto")]:
        n = not_worse = at_best = 0
        for i in fam["all"]:
            a = t.ratio(i, row, "mcl_adaptive")
            best = [x for x in (t.ratio(i, r, "mcl_adaptive") for r in peers) if x is not None]
            if a is None or not best:
                continue
            n += 1
            not_worse += a <= 1 + 1e-9
            at_best += a <= min(best) * (1 + 1e-9)
        if n:
            out.append(f"- `{row}`: MCL (adaptive) ≤ the identity's on {not_worse} of {n} instances; ≤ the best of "
                       f"the {len(peers)} single rows (best of {len(peers)}, chosen afterwards per instance) on "
                       f"{at_best} of {n}.")
    return out


def real_table(t, fam):
    """The real family per instance: every auto row against the identity and the best single row."""
    autos = [r for r in t.rows if r.startswith("auto")]
    peers = single_rows(t)
    lines = ["| graph | allocation | tasks | " + " | ".join(autos) +
             f" | best of the {len(peers)} single rows (chosen afterwards) | auto ≤ identity | auto ≤ best single |",
             "|---|---|---:|" + "---:|" * len(autos) + "---|---|---|"]
    for i in fam["real"]:
        c = t.instances[i]
        values = [t.ratio(i, r, "mcl_adaptive") for r in autos]
        best = min(((t.ratio(i, r, "mcl_adaptive"), r) for r in peers if t.ratio(i, r, "mcl_adaptive") is not None),
                   default=None)
        verdict = lambda ok: " / ".join("yes" if v is not None and ok(v) else "**no**" for v in values)
        lines.append(f"| {c['pattern']} | {c['allocation']} | {c['tasks']} | " +
                     " | ".join("—" if v is None else f"{v:.3f}" for v in values) + " | " +
                     ("—" if best is None else f"{best[0]:.3f} ({best[1]})") + " | " +
                     verdict(lambda v: v <= 1 + 1e-9) + " | " +
                     ("—" if best is None else verdict(lambda v: v <= best[0] * (1 + 1e-9))) + " |")
    return lines


def instance_table(t, fam):
    best_rows = single_rows(t)
    lines = ["| pattern | allocation | tasks | identity MCL | " + DEFAULT_CHAIN + " | scotch | "
             "best single row, chosen afterwards (algorithm) |",
             "|---|---|---:|---:|---:|---:|---|"]
    for i in fam["all"]:
        c = t.instances[i]
        mr = t.ratio(i, DEFAULT_CHAIN, "mcl_adaptive")
        sc = t.ratio(i, "scotch", "mcl_adaptive") if "scotch" in t.rows else None
        ratios = [(t.ratio(i, r, "mcl_adaptive"), r) for r in best_rows]
        ratios = [x for x in ratios if x[0] is not None]
        best = min(ratios) if ratios else None
        lines.append(f"| {c['pattern']} | {c['allocation']} | {c['tasks']} | "
                     f"{t.cell[(i, 'identity')]['mcl_adaptive']:.4g} | {mr:.3f} | "
                     f"{'—' if sc is None else f'{sc:.3f}'} | "
                     f"{'—' if best is None else f'{best[0]:.3f} ({best[1]})'} |")
    return lines


def by_reason_all(instances):
    out = defaultdict(list)
    for c in instances:
        out[c["reason"]].append(c)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("section")
    ap.add_argument("--machine", default="")
    ap.add_argument("--command", default="bench/run_quality_table.sh")
    ap.add_argument("--elapsed", default="")
    ap.add_argument("--commit", default="")
    ap.add_argument("--title", default="Mapping quality (issue 3)", help="the section's heading")
    ap.add_argument("--preface", default="", help="a paragraph to put under the heading")
    args = ap.parse_args()
    settings, cells = read(args.csv)
    t = Table(cells)
    fam = t.families()
    alloc_cols = [f for f in ALLOCATION_FAMILIES if fam[f]]
    pattern_cols = [f for f in PATTERN_FAMILIES if fam[f]] + sorted(
        {c["pattern_family"] for c in t.instances.values()} - set(PATTERN_FAMILIES))
    columns = alloc_cols + pattern_cols + ["all"]

    skipped_instances = [c for c in t.instances.values() if t.cell[(c["instance"], "identity")]["status"] == "skipped"]
    capped = defaultdict(list)
    for (i, row), c in t.cell.items():
        if c["status"] == "skipped" and t.cell[(i, "identity")]["status"] != "skipped":
            capped[(row, c["reason"])].append(t.instances[i])
    failed = [c for c in t.cell.values() if c["status"] == "failed"]

    L = [f"## {args.title}", ""] + ([args.preface, ""] if args.preface else [])
    L += [f"Made by `{args.command}`" + (f" at commit {args.commit}" if args.commit else "") + " (driver `bench/quality/quality_table.cpp`, formatting "
          "`bench/quality/format_quality_table.py`)." + (f" {args.machine}" if args.machine else "") +
          (f" The run took {args.elapsed}." if args.elapsed else ""), ""]
    by_family = defaultdict(list)
    for c in t.instances.values():
        if c["allocation"] not in by_family[c["allocation_family"]]:
            by_family[c["allocation_family"]].append(c["allocation"])
    patterns = defaultdict(list)
    for c in t.instances.values():
        if c["pattern"] not in patterns[c["pattern_family"]]:
            patterns[c["pattern_family"]].append(c["pattern"])
    L += ["**Instances.** " + ("The quick subset (`--quick`): a few patterns of `rankmap gen` on a few of the "
                              "allocations, " if settings.get("mode") == "quick" else
                              "Every pattern of `rankmap gen` on every allocation below, ")
          + "with default bytes, non-periodic stencils, `random` with seed 1. The task count "
          "is the allocation's slot count P, except `nas-cg` (the largest power of two ≤ P) and `nas-bt`/`nas-sp` "
          "(the largest square ≤ P); such a job runs on the allocation's first slots. Full allocations: ranks in "
          "row-major node order, `ppn` consecutive ranks per node. Fragmented allocations (`frag-N (seed s)`): "
          f"`fragmented_nodes` on `{settings['fragmented_grid']}` (9,216 nodes, about the size of Kraken's 9,408), "
          "N nodes with one process each (unless `ppnK` says K), ranks in the scheduler's order." +
          (" The *real* family: the communication matrices of real programs (bench/data/maplib: MapLib's four "
           "64-rank matrices; bench/data/profiles: LAMMPS, GROMACS and the SMPI sweep programs BT and SP, "
           "recorded by rankmap's profiler), each on every "
           "allocation with at least its task count and at most twice it, on its first slots; three allocations, "
           "`mesh:4x4x4 ppn1` (MapLib's machine), `torus:8x8x16 ppn1` and `torus:4x4x4x4x2 ppn2`, hold only "
           "real graphs."
           if any(c["pattern_family"] == "real" for c in t.instances.values()) else "") +
          (" This is the *training* set (`--set training`, bench/quality/README.md): the patterns on other "
           "allocations and with `random` seed 2, which auto is tuned on; it is not the table that is reported."
           if settings.get("mode") == "training" else ""), ""]
    L += ["**Families.** By allocation: " + "; ".join(
              f"*{f}* ({', '.join(by_family[f])})" for f in alloc_cols) + ". By pattern: " + "; ".join(
              f"*{f}* ({', '.join(patterns[f])})" for f in pattern_cols) + ". Every instance is in one family of "
          f"each kind; *all* is every instance ({len(fam['all'])} run"
          + (f", {len(skipped_instances)} skipped" if skipped_instances else "") + ").", ""]
    ran = len(fam["all"])
    left_out = "; ".join(f"{len(v)} instance{'s' if len(v) > 1 else ''}: {k}"
                         for k, v in by_reason_all(skipped_instances).items())
    L += [f"**Sampling.** {ran} of the {len(t.instances)} pattern × allocation instances ran, every row on each "
          "(except above a row's task cap, see *Rows*)." +
          (f" Left out, and listed under *Skipped cells*: {left_out}." if left_out else "") +
          " Each family's figure is the geometric mean over the instances of it that ran.", ""]
    L += [f"**Rows.** Every registered algorithm; `dimorder` with four traversal orders (the 3D order / the 5D order), "
          f"and `{DEFAULT_CHAIN}`, the runtime default. Refine (alone, from the identity, and in `{DEFAULT_CHAIN}`) "
          f"has a {float(settings['refine_budget_ms']):.0f} ms budget; every other search that takes one (emahd, "
          f"dimorder-best, grasp, ...) has {float(settings['search_budget_ms']):.0f} ms; seed {settings['seed']}; "
          "objective MCL under `adaptive` routing; one thread per mapping. Budgets are wall-clock, so on a loaded "
          "machine a budgeted search gets less CPU than its budget: the time table shows the CPU it got. "
          "Each row's limits are in brackets after its name: its wall-clock budget, and the task count above which "
          "it is skipped. `rahtm` runs without its CBC MILPs (`milp=off`, the cube local search and beam merging "
          "only) and only up to its cap, because with the MILPs it took over 100 s per instance here.", ""]
    for title, metric in (("MCL under `adaptive` routing", "mcl_adaptive"), ("MCL under `dor` routing", "mcl_dor"),
                          ("Hop-bytes", "hop_bytes")):
        L += [f"### {title} / identity (geometric mean per family; lower is better)", ""]
        L += metric_table(t, fam, columns, metric) + [""]
    L += ["### Mapping time (CPU ms of the mapping thread: median / max per family)", ""]
    L += time_table(t, fam, columns) + [""]
    L += ["(n/N) after a mean: only n of the family's N instances ran (see the skipped cells below).", ""]
    L += budget_notes(t) + [""]
    L += ["### Targets", ""]
    L += targets(t, fam, columns) + [""]
    L += ["### The default against the identity and the single algorithms (per instance, MCL adaptive)", ""]
    L += default_checks(t, fam) + [""]
    if fam["real"]:
        L += ["Real family, per instance (MCL adaptive / identity's; the verdict columns list the auto rows "
              "in the order shown):", ""]
        L += real_table(t, fam) + [""]
    lost = losses(t, fam)
    if lost:
        L += [f"Instances where `{DEFAULT_CHAIN}` has a higher MCL (adaptive) than `scotch` ({len(lost)} of "
              f"{len(fam['all'])}; ratio {DEFAULT_CHAIN} / scotch):", ""]
        L += [f"- {c['pattern']} on {c['allocation']} ({c['tasks']} tasks): {r:.3f}" for r, c in lost] + [""]
    if skipped_instances or capped:
        L += ["### Skipped cells", ""]
        by_reason = defaultdict(list)
        for c in skipped_instances:
            by_reason[c["reason"]].append(f"{c['pattern']} on {c['allocation']}")
        for reason, names in by_reason.items():
            L.append(f"- every algorithm on {len(names)} instance{'s' if len(names) > 1 else ''} "
                     f"({', '.join(names)}): {reason}")
        for (row, reason), insts in sorted(capped.items()):
            L.append(f"- {row} on {len(insts)} instances ({', '.join(sorted({x['allocation'] for x in insts}))}): "
                     f"{reason}")
        L.append("")
    if failed:
        L += ["### Failed cells", ""]
        for c in failed:
            L.append(f"- {c['chain']} on {c['pattern']} / {c['allocation']}: {c['reason']}")
        L.append("")
    L += ["<details><summary>Every instance: MCL (adaptive) of the identity, and ratios to it</summary>", ""]
    L += instance_table(t, fam) + ["", "</details>"]
    open(args.section, "w").write("\n".join(L) + "\n")


if __name__ == "__main__":
    main()
