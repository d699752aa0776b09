#!/usr/bin/env python3
"""Profile, place, relaunch: the path that is safe for every MPI program, end to end, under one MPI.

  place_and_rerun.py --mpi openmpi|mpich --mpiexec PATH [--mpiexec-flag F]... --np N --coords SPEC
                     --preload LIB --rankmap TOOL --checker LIB --workdir DIR -- PROGRAM [ARGS...]

1. Run 1: PROGRAM under the preload library with RANKMAP_PROFILE; the profile must be written.
2. `rankmap place` turns the profile into a launcher file (Open MPI rankfile, or MPICH host file) and
   the mapping it realises; the mapping must move ranks (else the test would prove nothing).
3. Run 2: the same PROGRAM, without rankmap, started from the launcher file, with the test-only
   placement checker preloaded: every rank checks it runs on the host and core of its slot.
   The program's output (its checksum line) must equal run 1's.
Every run has a timeout, so that a hang fails the test.
"""
import argparse
import os
import re
import subprocess
import sys

TIMEOUT = 150


def run(command, what):
    print("$ " + " ".join(command), flush=True)
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT,
                              start_new_session=True)
    except subprocess.TimeoutExpired:
        sys.exit(f"place_and_rerun: {what} timed out after {TIMEOUT} s (a hang)")
    output = done.stdout.decode(errors="replace")
    print(output, flush=True)
    if done.returncode != 0:
        sys.exit(f"place_and_rerun: {what} exited with status {done.returncode}")
    return output


def env_flags(mpi, variables):
    flags = []
    for name, value in variables.items():
        flags += ["-x", f"{name}={value}"] if mpi == "openmpi" else ["-genv", name, value]
    return flags


def read_mapping(path):
    slot_of = {}
    with open(path) as f:
        for line in f:
            fields = line.split("#")[0].split()
            if len(fields) == 2 and fields[0].isdigit():
                slot_of[int(fields[0])] = int(fields[1])
    return [slot_of[t] for t in range(len(slot_of))]


def first_slots(coords_path):
    """The first slot of every node of a coordinate file whose node lines all say slots=N."""
    firsts, next_slot = [], 0
    with open(coords_path) as f:
        for line in f:
            fields = line.split("#")[0].split()
            if fields and fields[0] == "node":
                slots = int(next(x for x in fields if x.startswith("slots="))[6:])
                firsts.append((next_slot, slots))
                next_slot += slots
    return firsts


def core_of_slot(coords_path, slot):
    for first, count in first_slots(coords_path):
        if first <= slot < first + count:
            return slot - first
    raise ValueError(f"slot {slot} is not in {coords_path}")


def checksum(output, what):
    match = re.search(r"checksum (-?\d+)", output)
    if not match or not re.search(r"^OK$", output, re.MULTILINE):
        sys.exit(f"place_and_rerun: {what} printed no checksum or no OK")
    return match.group(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mpi", choices=["openmpi", "mpich"], required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--mpiexec-flag", action="append", default=[])
    parser.add_argument("--np", type=int, required=True)
    parser.add_argument("--coords", required=True)
    parser.add_argument("--preload", required=True)
    parser.add_argument("--rankmap", required=True)
    parser.add_argument("--checker", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("program", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    os.makedirs(args.workdir, exist_ok=True)
    prefix = os.path.join(args.workdir, "profile")
    for stale in os.listdir(args.workdir):
        os.remove(os.path.join(args.workdir, stale))
    launcher = [args.mpiexec] + args.mpiexec_flag

    run1 = run(launcher + ["-n", str(args.np)] +
               env_flags(args.mpi, {"LD_PRELOAD": args.preload, "RANKMAP_COORDS": args.coords,
                                    "RANKMAP_PROFILE": prefix}) + program, "run 1 (profile)")
    for ext in ("mtx", "coords", "hosts", "summary", "phase1.mtx"):
        if not os.path.exists(f"{prefix}.{ext}"):
            sys.exit(f"place_and_rerun: run 1 wrote no {prefix}.{ext}")

    fmt = "openmpi-rankfile" if args.mpi == "openmpi" else "mpich-hostfile"
    launch_file, placed_map = os.path.join(args.workdir, "launch"), os.path.join(args.workdir, "placed.map")
    place = run([args.rankmap, "place", "--profile", prefix, "--format", fmt, "-o", launch_file,
                 "--mapping-output", placed_map, "--time-budget-ms", "2000"], "rankmap place")
    if "decision   placed by the mapping" not in place:
        sys.exit("place_and_rerun: rankmap place kept the launcher's order; the rerun would test nothing")
    # By default the profile's phases are found from steps, and they only hedge: the halo's one
    # blocking MPI_Sendrecv per direction makes a phase each, and scored on them nothing gains.
    if not re.search(r"phases found by steps, a hedge only: scored on the whole graph", place):
        sys.exit("place_and_rerun: rankmap place did not take the default profile's phases as a hedge:\n" + place)
    scored = run([args.rankmap, "place", "--profile", prefix, "--format", fmt, "-o", launch_file + ".phased",
                  "--phases-as", "objective", "--time-budget-ms", "500"], "rankmap place --phases-as objective")
    if not re.search(r"phases found by steps, scored on them", scored):
        sys.exit("place_and_rerun: --phases-as objective did not score on the phases:\n" + scored)
    slot_of = read_mapping(placed_map)
    if slot_of == list(range(len(slot_of))):
        sys.exit("place_and_rerun: the placed mapping is the identity")

    check_env = {"LD_PRELOAD": args.checker, "PLACEMENT_CHECK_MAPPING": placed_map,
                 "PLACEMENT_CHECK_COORDS": f"{prefix}.coords", "PLACEMENT_CHECK_HOSTS": f"{prefix}.hosts"}
    if args.mpi == "openmpi":
        placement = ["--rankfile", launch_file]
    else:
        # Hydra's host file places each rank on its node; the core within the node comes from a
        # binding list indexed by the rank's position on its host. Every emulated node of this test
        # is this one host, where that position is the world rank.
        cores = [core_of_slot(f"{prefix}.coords", s) for s in slot_of]
        placement = ["-f", launch_file, "-bind-to", "user:" + ",".join(map(str, cores))]
    run2 = run(launcher + placement + ["-n", str(args.np)] + env_flags(args.mpi, check_env) + program,
               "run 2 (placed)")
    if not re.search(r"^placement check: all \d+ ranks on the host and core of their slot$", run2, re.MULTILINE):
        sys.exit("place_and_rerun: the placement check did not pass")
    first, second = checksum(run1, "run 1"), checksum(run2, "run 2")
    if first != second:
        sys.exit(f"place_and_rerun: the result changed: checksum {first} in run 1, {second} in run 2")
    print(f"place_and_rerun: placed run reproduces checksum {first}; every rank on its slot")
    return 0


if __name__ == "__main__":
    sys.exit(main())
