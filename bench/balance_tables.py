#!/usr/bin/env python3
"""Regenerates the "Load balancing (issue 6)" section of BENCHMARKS.md.

Runs the alias-flow Google Benchmark (a million bins, against one pass summing the counts,
measured in the same run) and the comparison program (alias vs greedy sorted pairing on
branching-process loads, and migration hop-bytes on emulated 3D tori), and prints the section
as markdown, or with --update replaces the section in the given file.

usage: bench/balance_tables.py [--build build] [--update BENCHMARKS.md]
"""
import argparse
import json
import os
import platform
import re
import subprocess
import sys

HEADING = "## Load balancing (issue 6)"


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def speed_table(build):
    exe = os.path.join(build, "bench", "balance", "bench_alias_flow")
    cmd = [exe, "--benchmark_format=json", "--benchmark_repetitions=10", "--benchmark_report_aggregates_only=true"]
    data = json.loads(run(cmd))
    medians = {b["run_name"]: b for b in data["benchmarks"] if b.get("aggregate_name") == "median"}
    base = medians["BM_SumCounts"]
    rows = [
        ("BM_SumCounts", "one pass summing the counts (baseline)"),
        ("BM_AliasFlow", "alias flow, bins in index order"),
        ("BM_AliasFlowShuffledOrder", "alias flow, bins in a random order"),
        ("BM_GreedySorted", "greedy sorted pairing (QMC baseline)"),
    ]
    lines = [
        "### Flow computation on 1,000,000 bins",
        "",
        "Counts from one generation of DMC branching from 20 walkers per bin. Median of 10 repetitions; the ratio is "
        "CPU time over the summing pass of the same run. Target: at most 10 ms.",
        "",
        "| benchmark | what | CPU time (ms) | wall time (ms) | CPU ratio to the summing pass |",
        "|---|---|---|---|---|",
    ]
    for name, what in rows:
        b = medians[name]
        lines.append(f"| `{name}` | {what} | {b['cpu_time']:.2f} | {b['real_time']:.2f} | "
                     f"{b['cpu_time'] / base['cpu_time']:.1f} |")
    ctx = data["context"]
    lines += ["", f"Machine: {ctx.get('num_cpus')} CPUs at {ctx.get('mhz_per_cpu')} MHz, load average "
              f"{', '.join(f'{x:.1f}' for x in ctx.get('load_avg', []))} (shared; wall time includes waiting for "
              "the CPU, which is why CPU time is the figure to read).", ""]
    return "\n".join(lines)


def section(build):
    comparison = run([os.path.join(build, "bench", "balance", "balance_comparison")])
    return "\n".join([
        HEADING,
        "",
        "Made by `bench/balance_tables.py --build build --update BENCHMARKS.md` "
        f"(Release-with-debug-info build, {platform.machine()}).",
        "",
        speed_table(build),
        comparison.rstrip(),
        "",
    ])


def update(path, text):
    old = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    pattern = re.compile(re.escape(HEADING) + r"\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(old):
        new = pattern.sub(lambda _: text + "\n", old)
    else:
        new = old.rstrip("\n") + "\n\n" + text
    with open(path, "w") as f:
        f.write(new)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="the build directory (default: build)")
    parser.add_argument("--update", metavar="FILE", help="replace the section in FILE instead of printing it")
    args = parser.parse_args()
    text = section(args.build)
    if args.update:
        update(args.update, text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
