#!/usr/bin/env python3
"""Records the phases of sweep.c (NAS BT or SP) with rankmap's profiler, and checks them against sweep_phases.py.

  record_phases.py --variant bt|sp --q Q --n N --preload LIB --out PREFIX [--mpi openmpi|mpich]
                   [--phases pcontrol|steps] [--mpiexec CMD] [--timeout S]

Builds sweep.c with the real MPI (mpicc, -DRANKMAP_REAL_MPI: no SimGrid computation model), runs it
on Q*Q ranks under the preload layer with RANKMAP_PROFILE=PREFIX and RANKMAP_PROFILE_PHASES=pcontrol
(sweep.c calls MPI_Pcontrol at the start of each sweep) or steps (the profiler finds the phases
from when the processes wait, without the program's help), and compares every recorded phase,
PREFIX.phase1.mtx .. PREFIX.phase7.mtx, edge by edge with the phases sweep_phases.py computes from
sweep.c's definition. The recorded files are the experiment's phases (`--phases`); the comparison
shows the two descriptions of the program agree. Exits non-zero on any difference.

LIB must be the preload library built for --mpi. On a 2-core machine MPICH starts 1,024 processes
(about 10 minutes, 12 GB) where Open MPI does not finish; its default launcher line makes each process
yield while it polls.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_phases  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# Per MPI: the compiler, the default launcher line, and how the launcher passes a variable.
LAUNCHERS = {
    "openmpi": ("mpicc.openmpi", "mpiexec.openmpi --oversubscribe --bind-to none --mca btl self,vader",
                lambda name, value: ["-x", f"{name}={value}"]),
    "mpich": ("mpicc.mpich", "mpiexec.mpich -genv MPIR_CVAR_POLLS_BEFORE_YIELD 10",
              lambda name, value: ["-genv", name, value]),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", choices=sorted(sweep_phases.WIDTHS), required=True)
    parser.add_argument("--q", type=int, required=True)
    parser.add_argument("--n", type=int, default=8)
    parser.add_argument("--preload", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--coords", default="emulate:torus:8x8x8,ppn=2")
    parser.add_argument("--mpi", choices=sorted(LAUNCHERS), default="openmpi")
    parser.add_argument("--phases", choices=["pcontrol", "steps"], default="pcontrol")
    parser.add_argument("--mpiexec", help="the launcher line (default: the MPI's, see LAUNCHERS)")
    parser.add_argument("--timeout", type=float, default=3600)
    args = parser.parse_args()
    binary = args.out + ".sweep"
    compiler, default_launcher, env_flag = LAUNCHERS[args.mpi]
    subprocess.run([compiler, "-O2", "-DRANKMAP_REAL_MPI", "-o", binary, os.path.join(HERE, "programs", "sweep.c"),
                    os.path.join(HERE, "programs", "bench_common.c"), "-lm"], check=True)
    env = {"LD_PRELOAD": args.preload, "RANKMAP_COORDS": args.coords, "RANKMAP_PROFILE": args.out,
           "RANKMAP_PROFILE_PHASES": args.phases}
    flags = [x for name, value in env.items() for x in env_flag(name, value)]
    variant = ["-sp", "1"] if args.variant == "sp" else []
    command = (args.mpiexec or default_launcher).split() + ["-n", str(args.q * args.q)] + flags + [binary] + variant + ["-n", str(args.n), "-i", "1"]
    run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=args.timeout,
                         env=dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1"))
    print(run.stdout.decode(errors="replace"))
    if run.returncode != 0 or "check=ok" not in run.stdout.decode(errors="replace"):
        sys.exit("record_phases: the run failed")
    fwd, bwd = sweep_phases.WIDTHS[args.variant]
    expected = sweep_phases.phases_of(args.q, args.n, fwd, bwd)
    problems = 0
    for k, phase in enumerate(expected, start=1):
        recorded = sweep_phases.read_mtx(f"{args.out}.phase{k}.mtx")
        want = {edge: float(w) for edge, w in phase.items() if w > 0}
        same = dict(recorded) == want
        problems += not same
        print(f"phase {k}: {len(recorded)} edges recorded, {len(want)} computed: {'equal' if same else 'DIFFERENT'}")
    if os.path.exists(f"{args.out}.phase{len(expected) + 1}.mtx"):
        print(f"record_phases: more than {len(expected)} phases recorded")
        problems += 1
    print("record_phases: " + ("the recorded phases are sweep_phases.py's" if not problems else "FAILED"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
