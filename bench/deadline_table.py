#!/usr/bin/env python3
"""Makes the section "## Deadlines (issue 18)" of BENCHMARKS.md from one CSV of deadline_bench.

    deadline_table.py CSV > section.md     (CSV as a path from the repository's root, which the section names)

The CSV's `# key=value` lines name the command, commit, date and load; every figure comes from its
rows, so the section can be made again from the CSV alone. A run is within its deadline when its
wall time is at most 1.1 times the budget plus the time of one objective evaluation (the MCL of the
identity under adaptive routing, the least of three timings taken just before the run).
"""
import csv
import sys
from collections import OrderedDict


def read(path):
    meta, lines = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                for item in line[1:].split():
                    if "=" in item:
                        key, value = item.split("=", 1)
                        meta[key] = value
                if line.startswith("# date="):
                    meta["date"] = line[len("# date="):].strip()
            else:
                lines.append(line)
    return meta, list(csv.DictReader(lines))


def within(row):
    budget = float(row["budget_ms"])
    return not row["error"] and float(row["wall_ms"]) <= 1.1 * budget + float(row["evaluation_ms"])


def cell(row):
    if row["error"]:
        return "failed"
    budget = float(row["budget_ms"])
    ratio = float(row["wall_ms"]) / budget
    if within(row):
        return f"{ratio:.2f}"
    return f"**{ratio:.2f} over** (CPU {float(row['cpu_ms']) / budget:.2f})"


def median(values):
    values = sorted(values)
    return values[len(values) // 2] if values else None


def main():
    meta, rows = read(sys.argv[1])
    instances = list(OrderedDict.fromkeys(r["instance"] for r in rows))
    algorithms = list(OrderedDict.fromkeys(r["algorithm"] for r in rows))
    budgets = list(OrderedDict.fromkeys(r["budget_ms"] for r in rows))
    at = {(r["instance"], r["budget_ms"], r["algorithm"]): r for r in rows}
    commit = meta.get("commit", "?")
    out = ["## Deadlines (issue 18)", ""]
    out.append(f"`{meta.get('command', 'bench/run_deadline_bench.sh')}` at commit {commit}, "
               f"{meta.get('date', '?')}, on {meta.get('cores', '?')} shared cores (load average "
               f"{meta.get('load_at_start', '?').replace('/', ' ')} at the start, "
               f"{meta.get('load_at_end', '?').replace('/', ' ')} at the end); raw results in "
               f"`{sys.argv[1]}`.")
    out.append("")
    out.append("Each cell is one run of `run_chain` (`bench/deadline_bench.cpp`): its wall time divided by the "
               "budget asked, which is what a budget limits. The last column counts the instances on which the "
               "algorithm met the target. A run meets the target when its wall time is at "
               "most 1.1 times the budget plus one objective evaluation (the MCL of the identity under "
               "`adaptive` routing, timed in the same run just before it, given per instance below); a run "
               "over it is marked **over**, with its CPU time (all threads, and child processes) over the budget, which shows how much of "
               "the wall time the machine's other jobs took. Algorithms run with their defaults and "
               "`threads` as in the CSV's command; `dimorder` is its default order.")
    out.append("")
    for budget in budgets:
        out.append(f"### Budget {float(budget):g} ms: wall time / budget (`bench/run_deadline_bench.sh` at {commit})")
        out.append("")
        out.append("| algorithm | " + " | ".join(f"`{i}`" for i in instances) + " | within target |")
        out.append("|---|" + "---:|" * len(instances) + "---:|")
        evals = [median([float(r["evaluation_ms"]) for r in rows if r["instance"] == i and r["budget_ms"] == budget])
                 for i in instances]
        out.append("| *one evaluation, ms* | " + " | ".join("" if e is None else f"*{e:.2f}*" for e in evals) + " | |")
        for a in algorithms:
            runs = [at.get((i, budget, a)) for i in instances]
            cells = [cell(r) if r else "" for r in runs]
            done = [r for r in runs if r]
            met = sum(within(r) for r in done)
            out.append(f"| `{a}` | " + " | ".join(cells) + f" | {'yes' if met == len(done) else 'no'}, {met}/{len(done)} |")
        out.append("")
    over = [r for r in rows if not within(r)]
    out.append(f"**Target** (every run within 1.1 x its budget plus one objective evaluation): "
               f"{len(rows) - len(over)} of {len(rows)} runs met it.")
    if over:
        out.append("Over it:")
        out.append("")
        for r in over:
            limit = 1.1 * float(r["budget_ms"]) + float(r["evaluation_ms"])
            what = r["error"] if r["error"] else (f"{float(r['wall_ms']):.0f} ms wall ({float(r['cpu_ms']):.0f} ms CPU) "
                                                  f"against a limit of {limit:.0f} ms")
            if not r["error"] and float(r["cpu_ms"]) <= limit:
                what += "; its CPU time (all threads) was within the limit"
            out.append(f"- `{r['algorithm']}` on `{r['instance']}` at {float(r['budget_ms']):g} ms: {what}")
        out.append("")
        cpu_within = [r for r in over if not r["error"] and float(r["cpu_ms"]) <= 1.1 * float(r["budget_ms"]) + float(r["evaluation_ms"])]
        if cpu_within:
            out.append(f"Of the {len(over)} runs over it, {len(cpu_within)} used less CPU time (all threads) than the limit: "
                       "their wall time includes the time the machine's other jobs took from them, and whether they "
                       "would overrun alone is not shown by this run.")
        else:
            out.append(f"All {len(over)} runs over it also used more CPU time (all threads) than the limit: "
                       "the machine's other jobs do not explain the overrun.")
        out.append("")
    scotch = [r for r in rows if r["algorithm"].split("+")[0].split(":")[0] == "scotch"]
    stopped = [r for r in scotch if r.get("chosen") in ("identity", "initial")]
    if scotch:
        out.append(f"`scotch` maps in a child process that is killed at the deadline (docs/split-grasp-scotch.md): "
                   f"it was stopped on {len(stopped)} of its {len(scotch)} runs and then returned the launcher's "
                   "order (MCL ratio 1 in the CSV); its CPU time includes the child's.")
        out.append("")
    print("\n".join(out))


if __name__ == "__main__":
    main()
