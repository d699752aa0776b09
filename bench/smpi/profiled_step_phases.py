#!/usr/bin/env python3
"""Checks that rankmap's profiler (RANKMAP_PROFILE_PHASES=steps) finds the phases that the SimGrid
prototype of the rule, step_phases.py, finds in SimGrid's traces of the same programs.

  profiled_step_phases.py --bin SMPI_BIN --preload LIB --out DIR [--mpi openmpi|mpich] [--programs a,b]

For each program, at 64 ranks on a 4x4x4 torus with the smoke test's arguments:
1. simulates it with its time-independent trace and runs step_phases.py on the trace;
2. builds it against the real MPI (-DRANKMAP_REAL_MPI), runs it under the preload layer with
   RANKMAP_PROFILE_PHASES=steps, and reads the PREFIX.phase<k>.mtx the profiler wrote;
3. compares the two: the same number of phases, in the same order, with the same pairs of ranks
   and the same bytes (within 1e-9, step_phases.py's weights being scaled floats), leaving out a
   rank's messages to itself, which the profiler does not write.
The SimGrid rows `~steps` of experiment.py use step_phases.py's phases at 1,024 ranks; this shows
they are the phases users get from the profiler. Exits non-zero on any difference.
"""
import argparse
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import hostfile  # noqa: E402
import record_phases  # noqa: E402
import smoke_test  # noqa: E402
import smpi_platform  # noqa: E402
import smpi_run  # noqa: E402
import step_phases  # noqa: E402
import sweep_phases  # noqa: E402

RANKS = 64


def phase_files(prefix):
    phases = []
    while os.path.exists(f"{prefix}.phase{len(phases) + 1}.mtx"):
        phases.append(sweep_phases.read_mtx(f"{prefix}.phase{len(phases) + 1}.mtx"))
    return phases


def simulated_phases(program, binary, args, workdir):
    plat = os.path.join(workdir, "torus-4x4x4")
    dims = [4, 4, 4]
    smpi_platform.write_platform(plat, dims, smpi_platform.row_major_coords(dims), "torus:4x4x4")
    hosts = os.path.join(workdir, "identity.hosts")
    with open(hosts, "w") as f:
        f.write("".join(h + "\n" for h in hostfile.hosts_of_alloc_file(os.path.join(plat, "alloc.txt"))))
    graph = os.path.join(workdir, f"{program}.smpi.mtx")
    trace = os.path.join(workdir, f"{program}.trace")
    result = smpi_run.run(binary, os.path.join(plat, "platform.xml"), hosts, graph, args, trace=trace)
    if result["check"] != "ok":
        raise SystemExit(f"{program}: the simulated run failed its own check")
    prefix = os.path.join(workdir, f"{program}.prototype")
    step_phases.main(["--trace", trace, "--graph", graph, "--out", prefix])
    return phase_files(prefix)


def profiled_phases(program, source, args, workdir, mpi, preload):
    compiler, launcher, env_flag = record_phases.LAUNCHERS[mpi]
    binary = os.path.join(workdir, f"{program}.{mpi}")
    subprocess.run([compiler, "-O2", "-DRANKMAP_REAL_MPI", "-o", binary, source,
                    os.path.join(here, "programs", "bench_common.c"), "-lm"], check=True)
    prefix = os.path.join(workdir, f"{program}.profiled")
    env = {"LD_PRELOAD": preload, "RANKMAP_COORDS": "emulate:torus:4x4x4", "RANKMAP_PROFILE": prefix,
           "RANKMAP_PROFILE_PHASES": "steps"}
    command = launcher.split() + ["-n", str(RANKS)] + [x for n, v in env.items() for x in env_flag(n, v)] + \
        [binary] + args
    run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600,
                         env=dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1"))
    output = run.stdout.decode(errors="replace")
    if run.returncode != 0 or "check=ok" not in output:
        raise SystemExit(f"{program}: the profiled run failed:\n{output}")
    print(next((line for line in output.splitlines() if "rankmap: profile" in line), ""))
    return phase_files(prefix)


def same(a, b):
    """Equal phases, but for messages of a rank to itself, which the profiler leaves out of its graphs."""
    a, b = ({e: w for e, w in x.items() if e[0] != e[1]} for x in (a, b))
    return a.keys() == b.keys() and all(abs(a[e] - b[e]) <= 1e-9 * max(abs(a[e]), 1) for e in a)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="the SimGrid builds of the programs (smpicc)")
    parser.add_argument("--preload", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--mpi", choices=sorted(record_phases.LAUNCHERS), default="openmpi")
    parser.add_argument("--programs", default="halo3d,cg,bt,sp,allgather,fft2d")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    failed = 0
    for program in args.programs.split(","):
        name = "sweep" if program in ("bt", "sp") else program
        program_args = smoke_test.GRAPH_CASES[program][0]
        prototype = simulated_phases(program, os.path.join(os.path.abspath(args.bin), name), program_args, args.out)
        profiled = profiled_phases(program, os.path.join(here, "programs", f"{name}.c"), program_args, args.out,
                                   args.mpi, os.path.abspath(args.preload))
        differ = [k + 1 for k in range(min(len(prototype), len(profiled))) if not same(prototype[k], profiled[k])]
        ok = len(prototype) == len(profiled) and not differ
        failed += not ok
        print(f"{program}: {len(profiled)} phases profiled, {len(prototype)} from the trace: "
              + ("equal, pairs and bytes" if ok else f"DIFFERENT (phases {differ or 'count'})"))
    print("profiled_step_phases: " + ("the profiler's phases are step_phases.py's" if not failed else "FAILED"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
