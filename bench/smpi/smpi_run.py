#!/usr/bin/env python3
"""Runs one SMPI benchmark program on a platform with a host file, and records its result line.

The simulation settings live here, in one place:
  * network/model:CM02 - SimGrid's flow-level model without SMPI's piecewise bandwidth and latency
    factors (calibrated on an Ethernet cluster); with the platform's zero link latency (see
    smpi_platform.py) every flow crossing a link gets a max-min fair share of it;
  * network/crosstraffic:0 - no reverse-direction acknowledgement traffic, which a torus does not have;
  * smpi/simulate-computation:no - the host CPU time of the program is not injected (this machine is
    shared and noisy); the programs charge their arithmetic explicitly with smpi_execute_flops, so
    every run is deterministic.
  * smpi/privatization:no - the programs have no mutable globals, and 4,096 private copies of the
    binary would cost memory and start-up time.

The result is one JSON object per line appended to --results, with the program's SMPI_RESULT fields
(comm_time, total_time, check, ...), the labels given with --label key=value, the wall and CPU seconds
of the simulation and its peak memory.

Usage:
  smpi_run.py --binary B --platform P.xml --hostfile H [--graph OUT.mtx] [--label k=v ...]
              --results R.jsonl [-- program arguments]
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import time

SMPI_CONFIG = [
    "--cfg=network/model:CM02",
    "--cfg=network/crosstraffic:0",
    "--cfg=smpi/simulate-computation:no",
    "--cfg=smpi/privatization:no",
    "--cfg=contexts/stack-size:256",
    "--log=root.thres:warning",
]


def parse_result(stdout):
    for line in stdout.splitlines():
        if line.startswith("SMPI_RESULT "):
            fields = {}
            for item in line.split()[1:]:
                key, _, value = item.partition("=")
                try:
                    fields[key] = int(value)
                except ValueError:
                    try:
                        fields[key] = float(value)
                    except ValueError:
                        fields[key] = value
            return fields
    return None


def run(binary, platform, hostfile, graph, args, trace=None):
    """Simulates the program; with `trace`, SimGrid also writes its time-independent trace there
    (one file per rank, listed in `trace`), which step_phases.py reads."""
    with open(hostfile) as f:
        ranks = sum(1 for line in f if line.strip())
    tracing = ["-trace-ti", f"--cfg=tracing/filename:{trace}"] if trace else []
    command = ["smpirun", "-np", str(ranks), *SMPI_CONFIG, *tracing, "-platform", platform, "-hostfile", hostfile,
               binary]
    if graph:
        command += ["--graph", graph]
    command += args
    # GNU time reports the simulator's own CPU time and peak memory (smpirun is a shell wrapper).
    command = ["/usr/bin/time", "-f", "SMPI_USAGE %U %S %M", *command]
    start = time.monotonic()
    proc = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - start
    result = parse_result(proc.stdout)
    usage = [ln.split()[1:] for ln in proc.stderr.splitlines() if ln.startswith("SMPI_USAGE ")]
    if result is None or proc.returncode != 0 or not usage:
        sys.stderr.write(proc.stdout[-2000:] + proc.stderr[-4000:])
        raise SystemExit(f"smpi_run: {shlex.join(command)} failed with status {proc.returncode}")
    user, system, peak_kb = usage[-1]
    result["sim_wall_s"] = round(wall, 2)
    result["sim_cpu_s"] = round(float(user) + float(system), 2)
    result["sim_peak_mb"] = round(int(peak_kb) / 1024, 1)
    return result


def main(argv):
    if "--" in argv:
        cut = argv.index("--")
        argv, program_args = argv[:cut], argv[cut + 1:]
    else:
        program_args = []
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--platform", required=True)
    parser.add_argument("--hostfile", required=True)
    parser.add_argument("--graph")
    parser.add_argument("--label", action="append", default=[])
    parser.add_argument("--results", required=True)
    args = parser.parse_args(argv)
    result = run(os.path.abspath(args.binary), args.platform, args.hostfile, args.graph, program_args)
    for kv in args.label:
        key, _, value = kv.partition("=")
        result[key] = value
    result["args"] = " ".join(program_args)
    with open(args.results, "a") as f:
        f.write(json.dumps(result, sort_keys=True) + "\n")
    print(f"{result.get('program')} {' '.join(args.label)}: comm {result['comm_time']:.4e} s, "
          f"total {result['total_time']:.4e} s, check {result['check']} "
          f"({result['sim_cpu_s']} s CPU, {result['sim_peak_mb']} MB)")
    return 0 if result.get("check") == "ok" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
