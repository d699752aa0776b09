#!/usr/bin/env python3
"""The SMPI smoke test CI runs (CTest label `smpi`), well under a minute of CPU.

1. SimGrid's torus on a tiny platform: host numbering, routes and contention (verify_torus.py --quick).
2. The host-file conversion of DESIGN.md §8 on a hand-checked case, both ways (coordinate file and
   --topology), and against `rankmap emit --format smpi-hostfile` when the tool is given and has it.
3. With the tool: each program's own graph at 64 ranks (what it really sends, written by --graph)
   against `rankmap gen` of the matching pattern: the same edges (self-loops aside) and, except for
   the all-gather whose step s weighs 2^s, weights proportional within 1% (cg adds 16 bytes of
   scalar reductions to its row edges).
4. The 3D halo exchange at 64 ranks on torus:4x4x4: the identity placement (the 4x4x4 process
   grid on the 4x4x4 torus, every message one hop on its own link) checks its results and is
   at least twice as fast as a seeded random placement, whose messages share links.
5. sweep_stages.py on a hand-checked case: the 4x4 rank grid in order on torus:4x4, where x and y
   successors are one hop and z's (i-1, j+1) two, each link carrying one flow.
6. With the tool: sweep_phases.py splits bt's and sp's recorded graphs (64 ranks) into phases that
   add up to them, and refuses the other variant's phases.
7. With the tool: step_phases.py, from SimGrid's traces of the same runs, finds bt's seven phases
   (the pairs of ranks of each of sweep_phases.py's) and a single phase, the whole graph, for the
   halo exchange, each set of phases adding up to its graph.

Usage: smoke_test.py WORKDIR [RANKMAP]
"""
import os
import random
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import hostfile  # noqa: E402
import smpi_platform  # noqa: E402
import smpi_run  # noqa: E402
import step_phases  # noqa: E402
import sweep_phases  # noqa: E402
import sweep_stages  # noqa: E402


def build(workdir):
    bin_dir = os.path.join(workdir, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    programs = os.path.join(here, "programs")
    for program in ("halo3d", "cg", "sweep", "allgather", "fft2d"):
        subprocess.run(["smpicc", "-O2", "-o", os.path.join(bin_dir, program), os.path.join(programs, f"{program}.c"),
                        os.path.join(programs, "bench_common.c"), "-lm"], check=True)
    subprocess.run(["smpicc", "-O2", "-o", os.path.join(bin_dir, "verify_torus"),
                    os.path.join(here, "verify_torus.c")], check=True)
    return bin_dir


def check_conversion(workdir, rankmap):
    # torus:8x4x2 with ppn 2: slot 2 is on row-major node 1 = (0,0,1), SimGrid id 0 + 8*(0 + 4*1) = 32;
    # slot 4 on node 2 = (0,1,0), id 8; slot 63 on node 31 = (3,3,1), id 3 + 8*(3 + 4*1) = 59.
    plat = os.path.join(workdir, "torus-8x4x2")
    dims = [8, 4, 2]
    smpi_platform.write_platform(plat, dims, smpi_platform.row_major_coords(dims), "torus:8x4x2")
    slot_of = [2, 4, 63, 0]
    by_topology = hostfile.hostfile_lines(hostfile.hosts_of_topology("torus:8x4x2", "n"), 2, slot_of)
    by_file = hostfile.hostfile_lines(hostfile.hosts_of_alloc_file(os.path.join(plat, "alloc.txt")), 2, slot_of)
    expected = ["n32", "n8", "n59", "n0"]
    assert by_topology == expected, f"hostfile.py --topology gave {by_topology}, expected {expected}"
    assert by_file == expected, f"hostfile.py --alloc-file gave {by_file}, expected {expected}"
    print("host-file conversion: ok", by_file)
    if rankmap and os.path.exists(rankmap):
        help_text = subprocess.run([rankmap, "--help"], capture_output=True, text=True).stdout
        if "  emit" in help_text:
            check_emit(workdir, rankmap, plat, expected, slot_of)


def check_emit(workdir, rankmap, plat, expected, slot_of):
    """`rankmap emit --format smpi-hostfile` must agree with hostfile.py on the same mapping."""
    graph = os.path.join(workdir, "ring64.mtx")
    with open(graph, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real general\n64 64 64\n")
        f.write("".join(f"{i + 1} {(i + 1) % 64 + 1} 1\n" for i in range(64)))
    identity = os.path.join(workdir, "identity.map")
    job = ["--alloc-file", os.path.join(plat, "alloc.txt"), "--ppn", "2"]
    subprocess.run([rankmap, "map", "--graph", graph, *job, "--algo", "identity", "-o", identity], check=True,
                   capture_output=True)
    permuted = os.path.join(workdir, "permuted.map")
    full = slot_of + [s for s in range(64) if s not in slot_of]
    with open(identity) as f, open(permuted, "w") as out:
        out.write("".join(line for line in f if len(line.split()) != 2 or line.split()[0] in
                          ("rankmap-mapping", "tasks", "graph", "allocation", "algorithm")))
        out.write("".join(f"{t} {s}\n" for t, s in enumerate(full)))
    emitted = os.path.join(workdir, "emitted.hosts")
    subprocess.run([rankmap, "emit", *job, "--mapping", permuted, "--format", "smpi-hostfile", "-o", emitted],
                   check=True)
    ours = hostfile.hostfile_lines(hostfile.hosts_of_alloc_file(os.path.join(plat, "alloc.txt")), 2, full)
    with open(emitted) as f:
        theirs = [line.strip() for line in f if line.strip()]
    assert theirs == ours, f"rankmap emit gave {theirs[:6]}..., hostfile.py {ours[:6]}..."
    assert theirs[:4] == expected
    print("rankmap emit --format smpi-hostfile agrees with hostfile.py")


# program -> (program arguments at 64 ranks, `rankmap gen` arguments, weights proportional?)
GRAPH_CASES = {
    "halo3d": (["-n", "8", "-i", "1"], ["stencil3d", "--periodic"], True),
    "cg": (["-m", "1024", "-i", "1"], ["nas-cg"], True),
    "bt": (["-n", "4", "-i", "1"], ["nas-bt"], True),
    "sp": (["-sp", "1", "-n", "4", "-i", "1"], ["nas-sp"], True),
    "allgather": (["-m", "16", "-i", "1"], ["recdoubling"], False),
    "fft2d": (["-L", "512", "-i", "1"], ["fft2d"], True),
}


def read_edges(path):
    edges = {}
    with open(path) as f:
        lines = [ln for ln in f if not ln.startswith("%")]
    for ln in lines[1:]:
        i, j, w = ln.split()
        if i != j:
            edges[(int(i), int(j))] = edges.get((int(i), int(j)), 0) + float(w)
    return edges


def check_graphs(workdir, bin_dir, rankmap):
    plat = os.path.join(workdir, "torus-4x4x4")
    hosts = os.path.join(workdir, "identity.hosts")
    for program, (args, pattern, proportional) in GRAPH_CASES.items():
        binary = "sweep" if program in ("bt", "sp") else program
        mine = os.path.join(workdir, f"{program}.mtx")
        result = smpi_run.run(os.path.join(bin_dir, binary), os.path.join(plat, "platform.xml"), hosts, mine, args,
                              trace=os.path.join(workdir, f"{program}.trace"))
        assert result["check"] == "ok", f"{program} failed its own check"
        generated = os.path.join(workdir, f"{program}.gen.mtx")
        subprocess.run([rankmap, "gen", *pattern, "--ranks", "64", "-o", generated], check=True)
        a, b = read_edges(mine), read_edges(generated)
        assert a.keys() == b.keys(), f"{program}: {len(a.keys() ^ b.keys())} edges differ from rankmap gen {pattern[0]}"
        ratios = [a[e] / b[e] for e in a]
        spread = max(ratios) / min(ratios)
        assert spread < 1.01 or not proportional, f"{program}: weights not proportional to {pattern[0]} ({spread})"
        print(f"{program}: {len(a)} edges, the same as rankmap gen {' '.join(pattern)}; weight ratio spread "
              f"{spread:.4f}")
    check_sweep_phases(workdir)
    check_step_phases(workdir)


def check_sweep_phases(workdir):
    for variant, other in (("bt", "sp"), ("sp", "bt")):
        graph = os.path.join(workdir, f"{variant}.mtx")
        prefix = os.path.join(workdir, f"{variant}.phase")
        assert sweep_phases.main(["--q", "8", "--n", "4", "--variant", variant, "--graph", graph,
                                  "--out", prefix]) == 0
        assert all(os.path.exists(f"{prefix}{k}.mtx") for k in range(1, 8))
        try:
            sweep_phases.main(["--q", "8", "--n", "4", "--variant", other, "--graph", graph, "--out", prefix])
            raise AssertionError(f"sweep_phases.py accepted {other}'s phases for {variant}'s graph")
        except SystemExit as refused:
            assert "do not add up" in str(refused), refused
    print("sweep_phases: bt's and sp's phases add up to their recorded graphs, and not to each other's")


def check_step_phases(workdir):
    found = {}
    for program in ("bt", "halo3d"):
        prefix = os.path.join(workdir, f"{program}.step")
        graph = os.path.join(workdir, f"{program}.mtx")
        assert step_phases.main(["--trace", os.path.join(workdir, f"{program}.trace"), "--graph", graph,
                                 "--out", prefix]) == 0
        found[program] = phase_files(prefix + ".phase{}.mtx")
        total = {}
        for phase in found[program]:
            for edge, w in phase.items():
                total[edge] = total.get(edge, 0) + w
        recorded = sweep_phases.read_mtx(graph)
        assert total.keys() == recorded.keys() and all(abs(total[e] - w) <= 1e-9 * w for e, w in recorded.items()), \
            f"{program}: the step phases do not add up to the recorded graph"
    swept = phase_files(os.path.join(workdir, "bt.phase{}.mtx"))
    assert sorted(map(sorted, found["bt"])) == sorted(map(sorted, swept)), \
        f"bt: {len(found['bt'])} step phases, not sweep_phases.py's {len(swept)}"
    assert len(found["halo3d"]) == 1, f"halo3d: {len(found['halo3d'])} step phases, not one"
    print("step_phases: bt's seven sweep phases and halo3d's single one, found in SimGrid's traces")


def phase_files(pattern):
    """The edges of pattern.format(1), pattern.format(2), ... while they exist."""
    phases = []
    while os.path.exists(pattern.format(len(phases) + 1)):
        phases.append(sweep_phases.read_mtx(pattern.format(len(phases) + 1)))
    return phases


def check_halo(workdir, bin_dir):
    plat = os.path.join(workdir, "torus-4x4x4")
    dims = [4, 4, 4]
    smpi_platform.write_platform(plat, dims, smpi_platform.row_major_coords(dims), "torus:4x4x4")
    hosts = hostfile.hosts_of_alloc_file(os.path.join(plat, "alloc.txt"))
    shuffled = list(range(64))
    random.Random(7).shuffle(shuffled)
    times = {}
    for name, slot_of in (("identity", list(range(64))), ("random", shuffled)):
        path = os.path.join(workdir, f"{name}.hosts")
        with open(path, "w") as f:
            f.write("".join(h + "\n" for h in hostfile.hostfile_lines(hosts, 1, slot_of)))
        result = smpi_run.run(os.path.join(bin_dir, "halo3d"), os.path.join(plat, "platform.xml"), path, None,
                              ["-n", "16", "-i", "2"])
        assert result["check"] == "ok", f"halo3d under {name} failed its own check: {result}"
        times[name] = result["comm_time"]
        print(f"halo3d, 64 ranks, {name}: comm {result['comm_time']:.3e} s, total {result['total_time']:.3e} s")
    assert 2 * times["identity"] < times["random"], times


def check_sweep_stages():
    hosts = [smpi_platform.simgrid_coords(r, [4, 4]) for r in range(16)]  # rank j*4 + i on (i, j)
    got = {name: sweep_stages.direction_loads(hosts, [4, 4], 4, successor)
           for name, successor in sweep_stages.SUCCESSORS.items()}
    assert got == {"x": (1, 1.0), "y": (1, 1.0), "z": (1, 2.0)}, got
    print("sweep_stages: the hand-checked 4x4 case agrees")


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    workdir = os.path.abspath(argv[0])
    rankmap = argv[1] if len(argv) > 1 and argv[1] else None
    os.makedirs(workdir, exist_ok=True)
    bin_dir = build(workdir)
    verify = subprocess.run([sys.executable, os.path.join(here, "verify_torus.py"),
                             os.path.join(bin_dir, "verify_torus"), os.path.join(workdir, "verify"), "--quick"],
                            capture_output=True, text=True)
    print(verify.stdout)
    if verify.returncode != 0:
        print(verify.stderr, file=sys.stderr)
        return 1
    check_conversion(workdir, rankmap)
    check_sweep_stages()
    check_halo(workdir, bin_dir)
    if rankmap and "  gen" in subprocess.run([rankmap, "--help"], capture_output=True, text=True).stdout:
        check_graphs(workdir, bin_dir, rankmap)
    print("smpi smoke test: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
