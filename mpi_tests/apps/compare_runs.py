#!/usr/bin/env python3
"""Runs an MPI application plainly and under the preload layer, and compares what the runs print.

  compare_runs.py --app lammps|gromacs --workdir DIR [--env VAR=value]... [--timeout S]
                  [--plain-runs N] -- mpiexec [flags...] -n N app [args...]

The mpiexec line is run once or more as given ("plain"), then once with `-x VAR=value` for every
--env added after the launcher ("preload": the --env entries name LD_PRELOAD and the RANKMAP_*
settings). `-x` is Open MPI's flag, so the driver launches with Open MPI only. Each run has its
own directory under --workdir and its own time limit: a run that outlives --timeout is a hang, and
every process of the run (mpiexec, its daemons and the ranks, which Open MPI puts in process groups
of their own) is killed through the session the driver started it in, so that a hang fails the test
instead of stalling CI.

What must be equal:
  lammps   the thermo output (from each "Step ..." header to "Loop time"), line for line;
  gromacs  the run must finish ("Finished mdrun" in md.log), and every energy block of md.log (every
           nstlog step and the averages) must have the same terms with the same printed values.

GROMACS reproducibility, measured on Debian's gmx_mpi 2022.5 (mixed precision, FFTW 3.3.10, Open MPI
4.1) with spc_water.mdp on 10 ranks (8 PP ranks in 2x2x2 cells, 2 PME ranks), -dlb no -notunepme
-ntomp 1: without -reprod, 1 of 10 plain runs differed from the others from step 10 on (largest
relative difference of a printed value 1.6e-4, in the pressure; 1e-5 in the energies), because
GROMACS's parallel 3D FFT plans with FFTW_MEASURE, which chooses among FFT algorithms by timing them
(src/gromacs/fft/parallel_3dfft.cpp and fft5d.cpp; -reprod selects FFTW_ESTIMATE). With -reprod,
12 of 12 plain runs, some on a machine loaded by other builds, printed byte-identical energy
blocks, and so did a run under the preload with one of the renumberings GROMACS survives (those that
keep every PME rank's set of PP ranks and the last of them; see CMakeLists.txt). The tests therefore
run GROMACS with -reprod and compare the printed values exactly: no tolerance is needed.

--plain-runs N (N > 1) repeats the plain run and reports whether the plain runs agree with each
other, which is how the reproducibility above was measured. Exit status 0 when the runs agree, 77
(a skipped test) when the plain run cannot start on this machine's processor, 1 otherwise.
"""
import argparse
import os
import signal
import subprocess
import sys
import time

SKIPPED = 77  # CTest's SKIP_RETURN_CODE for these tests

KILL_GRACE_S = 3


def session_processes(sid):
    """Pids of the live processes in session `sid` (read from /proc); zombies wait for their parent."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            pids.append(int(entry))
    return pids


def kill_session(sid):
    """SIGTERM to every process of the session; SIGKILL to those still alive after a grace period."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in session_processes(sid):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + KILL_GRACE_S
        while session_processes(sid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if not session_processes(sid):
            return


class Run:
    def __init__(self, name, command, cwd, timeout):
        self.name, self.cwd = name, cwd
        os.makedirs(cwd, exist_ok=True)
        print(f"compare_runs: [{name}] {' '.join(command)}", flush=True)
        start = time.monotonic()
        proc = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
            self.hung = False
        except subprocess.TimeoutExpired:
            kill_session(proc.pid)
            out, err = proc.communicate()
            self.hung = True
        self.seconds = time.monotonic() - start
        self.returncode = proc.returncode
        self.stdout = out.decode(errors="replace")
        self.stderr = err.decode(errors="replace")
        with open(os.path.join(cwd, "stdout.txt"), "w") as f:
            f.write(self.stdout)
        with open(os.path.join(cwd, "stderr.txt"), "w") as f:
            f.write(self.stderr)
        for line in self.stderr.splitlines():
            if line.startswith("rankmap:"):
                print(f"compare_runs: [{name}] {line}")
        if self.hung:
            print(f"compare_runs: [{name}] HANG: no exit after {timeout:g} s; killed every process of the run")
        else:
            print(f"compare_runs: [{name}] exit status {self.returncode} after {self.seconds:.1f} s")

    def failed(self):
        return self.hung or self.returncode != 0

    def unsupported_hardware(self):
        """Debian's gmx_mpi is built with GMX_USE_RDTSCP and refuses to start on a processor without
        the rdtscp instruction (some virtual machines hide it); no setting of ours can change that."""
        return not self.hung and "compiled to use the rdtscp CPU instruction" in self.stdout + self.stderr

    def show_tail(self, lines=25):
        for stream, text in (("stdout", self.stdout), ("stderr", self.stderr)):
            tail = text.splitlines()[-lines:]
            if tail:
                print(f"compare_runs: [{self.name}] last lines of {stream}:")
                for line in tail:
                    print(f"    {line}")


def lammps_thermo(run):
    """The thermo lines of every run command: header and rows, from 'Step' up to 'Loop time'."""
    rows, inside = [], False
    for line in run.stdout.splitlines():
        if line.lstrip().startswith("Step "):
            inside = True
        elif line.startswith("Loop time"):
            inside = False
        if inside:
            rows.append(line.rstrip())
    return rows


def compare_lammps(reference, other):
    a, b = lammps_thermo(reference), lammps_thermo(other)
    print(f"compare_runs: LAMMPS thermo lines: {len(a)} in [{reference.name}], {len(b)} in [{other.name}]")
    if not a:
        print(f"compare_runs: no thermo output in [{reference.name}]")
        return False
    problems = [f"line {i + 1}: {x!r} != {y!r}" for i, (x, y) in enumerate(zip(a, b)) if x != y]
    if len(a) != len(b):
        problems.append(f"{len(a)} lines != {len(b)} lines")
    for p in problems[:10]:
        print(f"compare_runs: {p}")
    if not problems:
        print(f"compare_runs: [{reference.name}] and [{other.name}]: thermo output identical ({len(a)} lines)")
    return not problems


def gromacs_energies(path):
    """The energy blocks of an md.log, as (label, [(term, printed value)]): one block per logged step
    (label 'step N') and the averages (label 'averages').

    Terms are printed five to a line in fields 15 characters wide, the values on the line below.
    """
    with open(path) as f:
        lines = f.read().splitlines()
    blocks, label, i = [], None, 0
    while i < len(lines):
        line = lines[i]
        if line.split() == ["Step", "Time"] and i + 1 < len(lines):
            label = "step " + lines[i + 1].split()[0]
        elif "A V E R A G E S" in line:
            label = "averages"
        elif line.strip() == "Energies (kJ/mol)":
            terms, i = [], i + 1
            while i + 1 < len(lines) and lines[i].strip():
                names = [lines[i][k:k + 15].strip() for k in range(0, len(lines[i]), 15)]
                values = lines[i + 1].split()
                terms += list(zip([n for n in names if n], values))
                i += 2
            blocks.append((label, terms))
            continue
        i += 1
    return blocks


def compare_gromacs(reference, other):
    logs = {}
    for run in (reference, other):
        log = os.path.join(run.cwd, "md.log")
        if not os.path.exists(log):
            print(f"compare_runs: [{run.name}] wrote no md.log")
            return False
        with open(log) as f:
            if "Finished mdrun" not in f.read():
                print(f"compare_runs: [{run.name}] md.log does not say 'Finished mdrun'")
                return False
        logs[run.name] = gromacs_energies(log)
    a, b = logs[reference.name], logs[other.name]
    terms = sum(len(t) for _, t in a)
    print(f"compare_runs: GROMACS energy blocks: {len(a)} in [{reference.name}] ({terms} values), "
          f"{len(b)} in [{other.name}]; every printed digit must match")
    if not a:
        print(f"compare_runs: no energy blocks in [{reference.name}]")
        return False
    problems, worst = [], 0.0
    if [label for label, _ in a] != [label for label, _ in b]:
        problems.append(f"blocks {[l for l, _ in a]} != {[l for l, _ in b]}")
    for (label, ta), (_, tb) in zip(a, b):
        if [n for n, _ in ta] != [n for n, _ in tb]:
            problems.append(f"{label}: terms {[n for n, _ in ta]} != {[n for n, _ in tb]}")
            continue
        for (name, x), (_, y) in zip(ta, tb):
            if x != y:
                fx, fy = float(x), float(y)
                worst = max(worst, abs(fx - fy) / max(abs(fx), abs(fy)))
                problems.append(f"{label} {name}: {x} != {y}")
    print(f"compare_runs: largest relative difference between printed values: {worst:.3g}")
    for p in problems[:10]:
        print(f"compare_runs: {p}")
    if not problems:
        print(f"compare_runs: [{reference.name}] and [{other.name}]: energies agree")
    return not problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--app", choices=["lammps", "gromacs"], required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--env", action="append", default=[], metavar="VAR=value")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per run (default 60)")
    parser.add_argument("--plain-runs", type=int, default=1)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no mpiexec command after --")
    for kv in args.env:
        if "=" not in kv:
            parser.error(f"--env {kv}: expected VAR=value")

    def compare(reference, other):
        if args.app == "lammps":
            return compare_lammps(reference, other)
        return compare_gromacs(reference, other)

    names = [f"plain{k + 1}" for k in range(args.plain_runs)] if args.plain_runs > 1 else ["plain"]
    plain = [Run(name, command, os.path.join(args.workdir, name), args.timeout) for name in names]
    for run in plain:
        if run.failed():
            run.show_tail()
            if run.unsupported_hardware():
                print(f"compare_runs: SKIPPED: {args.app} cannot run on this machine's processor (plain run)")
                return SKIPPED
            print("compare_runs: FAIL: the plain run itself did not complete")
            return 1
    reproducible = all([compare(plain[0], run) for run in plain[1:]])
    if args.plain_runs > 1:
        print(f"compare_runs: plain runs {'agree' if reproducible else 'DIFFER'} with each other")

    launch_env = [flag for kv in args.env for flag in ("-x", kv)]
    preload = Run("preload", command[:1] + launch_env + command[1:], os.path.join(args.workdir, "preload"),
                  args.timeout)
    if preload.failed():
        preload.show_tail()
        print("compare_runs: FAIL: the run under the preload layer "
              + ("hung" if preload.hung else f"exited with status {preload.returncode}")
              + f"; the plain run took {plain[0].seconds:.1f} s")
        return 1
    same = compare(plain[0], preload)
    print("compare_runs: " + ("PASS: the run under the preload layer matches the plain run" if same and reproducible
                              else "FAIL: the runs differ"))
    return 0 if same and reproducible else 1


if __name__ == "__main__":
    sys.exit(main())
