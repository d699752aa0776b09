#!/usr/bin/env bash
# Runs bench/eval_bench (MCL under adaptive routing versus hop-bytes, issue 2) and writes the
# section "## Evaluation speed (issue 2)" of BENCHMARKS.md, replacing an earlier one.
#
#   bench/run_eval_bench.sh [BUILD_DIR]      default build/; needs python3
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cmake --build "$build" --target eval_bench >/dev/null
mkdir -p "$root/bench/results"
json=$root/bench/results/eval_bench.json
section=$root/bench/results/eval_speed.md
load=$(cut -d' ' -f1-3 /proc/loadavg)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')

"$build/bench/eval_bench" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
  --benchmark_out="$json" --benchmark_out_format=json >/dev/null

python3 - "$json" "$section" "$load" "$cpu" <<'PY'
import json, sys
path, out, load, cpu = sys.argv[1:5]
runs, sharing = {}, {}
for b in json.load(open(path))["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    parts = b["run_name"].split("/")
    if parts[0] == "short_flows":  # short_flows/MODEL/real_time/threads:N
        sharing[(parts[1], int(parts[3].split(":")[1]))] = b
        continue
    kind, pattern, topology, ppn, tasks = parts
    runs[(kind, pattern, topology, ppn, int(tasks))] = b

def ms(b, key):
    return b[key] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]

lines = ["## Evaluation speed (issue 2)", "",
         "`bench/run_eval_bench.sh` (Google Benchmark, `bench/eval_bench.cpp`), one thread (but for the sharing test at the end), median of 3 repetitions.",
         f"Machine: {cpu}; load average at the start {load} (the machine is shared, so CPU time is",
         "reported, and the ratio to a baseline measured in the same run is the figure to compare).", "",
         "- **MCL adaptive**: `max_channel_load` under `adaptive` routing of the identity mapping, i.e. aggregating",
         "  the edges into node-to-node flows and routing every flow over all minimal paths.",
         "- **baseline**: `hop_bytes` of the same mapping of the same instance (one pass over the edges).",
         "- Instances: `rankmap gen PATTERN --ranks P` on the first P slots of the machine (`rankmap eval --topology`).", "",
         "| pattern | machine | tasks | edges | MCL adaptive, CPU ms | hop-bytes, CPU ms | ratio | MCL value | target |",
         "|---|---|---:|---:|---:|---:|---:|---:|---|"]
for (kind, pattern, topology, ppn, tasks), b in sorted(runs.items(), key=lambda kv: (kv[0][2] != "torus:4x4x4x4x2", kv[0][1], kv[0][4])):
    if kind != "mcl_adaptive":
        continue
    base = runs[("hop_bytes", pattern, topology, ppn, tasks)]
    t, h = ms(b, "cpu_time"), ms(base, "cpu_time")
    target = "≤ 2000 ms: " + ("met" if t <= 2000 else "**missed**") if topology == "torus:4x4x4x4x2" else "growth"
    lines.append(f"| {pattern} | {topology} {ppn} | {tasks} | {int(b['edges'])} | {t:.1f} | {h:.1f} | {t / h:.2f} | {b['value']:.6g} | {target} |")

lines += ["", "Cold, as the first scoring of a `rankmap map` or a runtime decision (`mcl_adaptive_cold`): a new routing",
          "model, so every route pattern is built anew (later scorings in the same call share the model), on 1,000 nodes of torus:16x24x24 scattered with seed 4 (the quality table's",
          "frag-1000), one process each, where nearly every flow has an offset of its own:", "",
          "| pattern | tasks | edges | MCL adaptive cold, CPU ms | hop-bytes, CPU ms | ratio | MCL value |",
          "|---|---:|---:|---:|---:|---:|---:|"]
for (kind, pattern, topology, ppn, tasks), b in sorted(runs.items()):
    if kind == "mcl_adaptive_cold":
        base = runs[("hop_bytes", pattern, topology, ppn, tasks)]
        t, h = ms(b, "cpu_time"), ms(base, "cpu_time")
        lines.append(f"| {pattern} | {tasks} | {int(b['edges'])} | {t:.1f} | {h:.3f} | {t / h:.0f} | {b['value']:.6g} |")

lines += ["", "Growth on torus:16x16x16x8x2, ppn 16 (CPU time relative to 16,384 tasks):", ""]
for pattern in sorted({k[1] for k in runs}):
    sizes = sorted(k[4] for k in runs if k[0] == "mcl_adaptive" and k[1] == pattern and k[2] == "torus:16x16x16x8x2")
    if not sizes:
        continue
    first = ms(runs[("mcl_adaptive", pattern, "torus:16x16x16x8x2", "ppn16", sizes[0])], "cpu_time")
    steps = ", ".join(f"{s}: ×{ms(runs[('mcl_adaptive', pattern, 'torus:16x16x16x8x2', 'ppn16', s)], 'cpu_time') / first:.2f}" for s in sizes)
    lines.append(f"- {pattern}: {steps}")
if sharing:
    own, shared = sharing[("model_per_thread", 2)], sharing[("shared_model", 2)]
    lines += ["", "Threads sharing one routing model (`short_flows`): two threads each route 11 short flows (offsets of at",
              "most 2 per dimension) from every node of torus:16x24x24 on one shared model, against a model each; both",
              "caches warm. Wall time per round at 2 threads: shared "
              f"{ms(shared, 'real_time'):.1f} ms, a model each {ms(own, 'real_time'):.1f} ms, ratio "
              f"{ms(shared, 'real_time') / ms(own, 'real_time'):.2f} (patterns are read without a lock)."]
open(out, "w").write("\n".join(lines) + "\n")
PY

python3 "$root/bench/replace_section.py" "$root/BENCHMARKS.md" "$section"
cat "$section"
