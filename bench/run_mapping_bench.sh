#!/usr/bin/env bash
# Runs bench/mapping_bench and writes its results as the "Mapper speed (issue 3)" section of
# BENCHMARKS.md, replacing an older copy of that section and keeping every other section.
# Usage: bench/run_mapping_bench.sh [build-dir]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cmake --build "$build" --target mapping_bench -j2 >/dev/null
mkdir -p bench/results
json=bench/results/mapping_bench.json
"$build/bench/mapping_bench" --benchmark_out="$json" --benchmark_out_format=json >/dev/null
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt")

python3 - "$json" BENCHMARKS.md "$build_type" <<'PY'
import json, os, re, sys

data = json.load(open(sys.argv[1]))
runs = {b["name"].replace("/real_time", ""): b for b in data["benchmarks"] if b.get("run_type") != "aggregate"}

def ms(b, key):
    return b[key] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]

def named(prefix):
    return [(k, v) for k, v in runs.items() if k.startswith(prefix)]

def fmt(x):
    return f"{x:,.1f}" if x >= 10 else f"{x:.2f}"

ctx = data["context"]
out = ["## Mapper speed (issue 3)", "",
       f"Produced by `bench/run_mapping_bench.sh` (Google Benchmark, `bench/mapping_bench.cpp`, rankmap built "
       f"{sys.argv[3]}) on {ctx.get('num_cpus')} CPUs, load average "
       f"{os.getloadavg()[0]:.1f} when it finished. The machine is shared, so wall time is inflated by the "
       "load; CPU time is the time on one core, and each mapper is also given as a ratio of CPU times to a "
       "baseline measured in the same run. Instances from the pattern generator: periodic `stencil3d`, and `random` "
       "(six random partners per rank), and graphs without edges where only the allocation matters (`empty`). MCL is under `adaptive` routing.", "",
       "| mapper | instance | CPU ms | wall ms | baseline (same run) | baseline CPU ms | ratio | target | MCL / identity's |",
       "|---|---|---:|---:|---|---:|---:|---|---:|"]

def row(algo, inst, b, base, base_ms, target):
    quality = b.get("mcl_vs_identity")
    out.append(f"| {algo} | {inst} | {fmt(ms(b, 'cpu_time'))} | {fmt(ms(b, 'real_time'))} | {base} | "
               f"{fmt(base_ms)} | {ms(b, 'cpu_time') / base_ms:,.1f} | {target} | "
               f"{'' if quality is None else f'{quality:.2f}'} |")

def sort_baseline(n):
    return f"`std::sort` of {n:,} keys", ms(runs[f"baseline_sort_keys/{n}"], "cpu_time")

for name, b in named("mahd/"):
    _, algo, inst = name.split("/")
    row(f"`{algo}`", inst, b, *sort_baseline(16384), "≤ 1,000 ms")
for name, b in named("hilbert/"):
    row("`hilbert`", name.split("/")[1], b, *sort_baseline(1000000), "≤ 1,000 ms")
for name, b in named("emahd/"):
    inst = name.split("/")[1]
    base = runs[f"baseline_identity_mcl/{inst}"]
    row("`emahd`", inst, b, "one MCL evaluation of the identity", ms(base, "cpu_time"), "≤ 10,000 ms")
for name, b in named("bisect/"):
    inst = name.split("/")[1]
    base = runs[f"baseline_identity_mcl/{inst}"]
    row("`bisect`", inst, b, "one MCL evaluation of the identity", ms(base, "cpu_time"), "none (auto's first member)")
for name, b in named("detect_task_grid/"):
    inst = name.split("/")[1]
    base = runs[f"baseline_identity_mcl/{inst}"]
    row("`detect_task_grid`", inst, b, "one MCL evaluation of the identity", ms(base, "cpu_time"),
        "none (paid before bisect, emahd and split look at the clock)")
for name, b in named("refine_attempts/"):
    _, objective, inst = name.split("/")[:3]
    base = runs[f"baseline_identity_mcl/{inst}"]
    row(f"`refine:100000` ({objective})", inst, b, "one MCL evaluation of the identity", ms(base, "cpu_time"),
        "none (the swap search's speed, which a timed search turns into swaps)")

out += ["", "`refine` against its time budget (wall clock, which is what the budget limits), starting from "
        "`mahd`'s mapping; each run is the mean of 3. refine keeps back the time of one objective evaluation "
        "for its final check, which it skips when no swap was kept: such runs end that much under budget.", "",
        "| instance | asked ms | actual wall ms | actual / asked | target | MCL / mahd's |",
        "|---|---:|---:|---:|---|---:|"]
for name, b in named("refine/"):
    _, inst, asked = name.split("/")[:3]
    actual = ms(b, "real_time")
    out.append(f"| {inst} | {asked} | {fmt(actual)} | {actual / float(asked):.2f} | ≤ 1.10 | {b['mcl_vs_mahd']:.2f} |")
section = "\n".join(out) + "\n"

path = sys.argv[2]
text = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
pattern = re.compile(r"^## Mapper speed \(issue 3\)\n.*?(?=^## |\Z)", re.S | re.M)
if pattern.search(text):
    text = pattern.sub(lambda _: section + "\n", text)
else:
    text = text.rstrip("\n") + "\n\n" + section
open(path, "w").write(text.rstrip("\n") + "\n")
PY
echo "run_mapping_bench: BENCHMARKS.md updated from $json"
