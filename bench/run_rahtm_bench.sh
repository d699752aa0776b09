#!/usr/bin/env bash
# Runs bench/rahtm_quality (RAHTM against every other mapper, issue 5) and writes the section
# "## RAHTM (issue 5)" of BENCHMARKS.md, replacing an earlier one.
#
#   bench/run_rahtm_bench.sh [BUILD_DIR]      default build/; needs python3; about an hour
# RAHTM_BENCH_INSTANCES="name ..." re-runs some instances only (names as rahtm_quality prints them); the
# rows of the others are kept from the last run (bench/results/rahtm_quality.tsv), each with its date.
# RAHTM_BENCH_ALGOS="algo ..." re-runs only those rows (e.g. "mahd+refine" after a change to it) and
# keeps the others; the section then lists the rows that were re-run, with their date.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cmake --build "$build" --target rahtm_quality >/dev/null
mkdir -p "$root/bench/results"
tsv=$root/bench/results/rahtm_quality.tsv
section=$root/bench/results/rahtm_quality.md
load=$(cut -d' ' -f1-3 /proc/loadavg)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
start=$(date -u '+%Y-%m-%d %H:%M')

write_section() {
  local end_load
  end_load=$(cut -d' ' -f1-3 /proc/loadavg)
  python3 - "$tsv" "$section" "$load" "$end_load" "$cpu" "$start" "$("$build/bench/rahtm_quality" --list)" <<'PY'
import sys
path, out, load, end_load, cpu, start, listed = sys.argv[1:8]
listed = listed.split()
rows = {}
order = []
started = {}
rerun = {}  # (algorithm, date) -> instances whose row of that algorithm is newer than the instance's run
for line in open(path):
    f = line.rstrip("\n").split("\t")
    if len(f) < 7:
        continue
    inst, algo, mcl, ratio, wall, cpu_s, note = f[:7]
    if inst not in rows:
        rows[inst] = {}
        order.append(inst)
        started[inst] = f[7] if len(f) > 7 else start
    row_date = f[7] if len(f) > 7 else start
    if row_date != started[inst]:
        rerun.setdefault((algo, row_date), []).append(inst)
    rows[inst][algo] = dict(mcl=None if mcl == "-" else float(mcl), wall=wall, cpu=cpu_s, note=note)

# The BG/Q orders on 5-D grids; the same orders on the 3-D grid (A, B, C, then T = the slots of a node).
columns = [("identity", ["identity"]), ("ABCDET", ["dimorder:ABCDET", "dimorder:ABCT"]),
           ("TABCDE", ["dimorder:TABCDE", "dimorder:TABC"]), ("ACEBDT", ["dimorder:ACEBDT", "dimorder:ACBT"]),
           ("hilbert", ["hilbert"]), ("mahd+refine", ["mahd+refine"]), ("scotch", ["scotch"]), ("rahtm", ["rahtm"])]

def cell(r, names):
    for n in names:
        if n in r:
            return r[n]
    return None

order.sort(key=lambda i: listed.index(i) if i in listed else len(listed))
dates = sorted(set(started.values()))
when = f"started {start} UTC" if dates == [start] else \
    "runs started " + ", ".join(f"{d} UTC ({sum(v == d for v in started.values())} instances)" for d in dates) + \
    f"; the last ({start} UTC) had load average {load} at the start, {end_load} at the end"
lines = ["## RAHTM (issue 5)", "",
         f"`bench/run_rahtm_bench.sh` (`bench/rahtm_quality.cpp`), {when}. Machine: {cpu}, 2 cores shared",
         f"with other jobs (load average {load} at the start, {end_load} at the end of the last run), so wall times are inflated;",
         "the CPU time of the process (both threads summed, so on an idle 2-core machine the wall time would be about",
         "half of it) is given next to it, and the time targets are judged on both.", "",
         "- Value: MCL under `adaptive` routing (bytes per unit of link capacity on the most loaded channel), lower is better;",
         "  **bold** = lowest of the row. Every mapper gets `--threads 2`; `mahd+refine` a 30 s budget; rahtm its defaults",
         "  (beam 64; cube sizes 4 and 3, short dimensions first and last; CBC on cube problems of up to 5,000 columns).",
         "- Graphs: `rankmap gen nas-cg|nas-bt|nas-sp --ranks P`. Allocations: the whole grid with the given ppn;",
         "  `fragmented128` = 128 nodes of `torus:8x8x8` chosen by `fragmented_nodes(grid, 128, seed 1)`, ppn 8.",
         "- ABCDET, TABCDE, ACEBDT are `dimorder:` orders (T = the slots of a node); on the 3-D grid the same orders",
         "  ABCT, TABC, ACBT."] + \
        [f"- Re-run on {d} UTC: the `{a}` rows of {len(v)} instances (the other rows are from the dates above)."
         for (a, d), v in sorted(rerun.items())] + ["",
         "| instance | " + " | ".join(c for c, _ in columns) + " | rahtm / best other | rahtm wall s | rahtm CPU s | target |",
         "|---|" + "---:|" * len(columns) + "---:|---:|---:|---|"]
notes = []
for inst in order:
    r = rows[inst]
    values = [cell(r, names) for _, names in columns]
    mcls = [v["mcl"] for v in values if v and v["mcl"] is not None]
    best = min(mcls) if mcls else None
    texts = []
    for v in values:
        if not v or v["mcl"] is None:
            texts.append("–")
            continue
        t = f"{v['mcl']:.4g}"
        texts.append(f"**{t}**" if v["mcl"] == best else t)
    rahtm = r.get("rahtm")
    others = [v["mcl"] for (c, _), v in zip(columns, values) if c != "rahtm" and v and v["mcl"] is not None]
    rel = f"{rahtm['mcl'] / min(others):.3f}" if rahtm and rahtm["mcl"] and others else "–"
    pattern, tasks = inst.split("/")[0], int(inst.split("/")[1])
    targets = []
    if rahtm and rahtm["mcl"] is not None:
        wall = float(rahtm["wall"])
        if tasks == 16384:
            targets.append("lowest: " + ("met" if rahtm["mcl"] <= min(others) else "**missed**"))
        limit = 30 if tasks <= 1024 else 600
        cpu_s = float(rahtm["cpu"])
        targets.append(f"≤ {limit} s: wall " + ("met" if wall <= limit else "**missed**") +
                       ", CPU " + ("met" if cpu_s <= limit else "**missed**"))
        notes.append(f"- {inst}: rahtm {rahtm['note']}")
    inst_label = inst if len(dates) == 1 else f"{inst} ({started[inst]})"
    lines.append(f"| {inst_label} | " + " | ".join(texts) +
                 f" | {rel} | {rahtm['wall'] if rahtm else '–'} | {rahtm['cpu'] if rahtm else '–'} | {'; '.join(targets)} |")
lines += ["", "What rahtm did on each instance (clustering chosen; cube problems: distinct ones solved, of all levels;",
          "proven optimal by CBC):", ""] + notes
open(out, "w").write("\n".join(lines) + "\n")
PY

python3 "$root/bench/replace_section.py" "$root/BENCHMARKS.md" "$section"
}

instances=${RAHTM_BENCH_INSTANCES:-$("$build/bench/rahtm_quality" --list)}
algos=${RAHTM_BENCH_ALGOS:-}
only=()
for a in $algos; do only+=(--only "$a"); done
if { [ -n "${RAHTM_BENCH_INSTANCES:-}" ] || [ -n "$algos" ]; } && [ -f "$tsv" ]; then
  kept=$(mktemp)
  awk -F'\t' -v skip="$instances" -v algos="$algos" '
       BEGIN { n = split(skip, s, " "); for (i = 1; i <= n; ++i) drop[s[i]] = 1
               m = split(algos, a, " "); for (i = 1; i <= m; ++i) redo[a[i]] = 1 }
       !(($1 in drop) && (m == 0 || ($2 in redo)))' "$tsv" >"$kept"
  mv "$kept" "$tsv"
else
  : >"$tsv"
fi
# One instance at a time, the section rewritten after each: a run cut short still reports what it measured.
for instance in $instances; do
  "$build/bench/rahtm_quality" "${only[@]}" "$instance" | sed "s/\$/\t$start/" | tee -a "$tsv"
  write_section
done
cat "$section"
