#!/usr/bin/env python3
"""Checks that SimGrid's TORUS cluster is the machine rankmap thinks it is (DESIGN.md §8).

1. Host numbering and routing: on each platform, verify_torus walks the route SimGrid computes
   between host pairs (every pair up to 512 hosts) and checks that each link joins two torus
   neighbours under id = c0 + k0*(c1 + k1*(c2 + ...)) (dimension 0 fastest), that the route has
   exactly the torus distance in links, and that it corrects dimension 0 first, then 1, ... The
   same walk with the extents reversed (dimension 0 slowest) must fail, so the check discriminates.
2. Contention: timed transfers of S bytes with 2 or 4 ranks on an 8x4x2 torus. Alone, a transfer
   takes T1 = S / 1.8 GB/s whatever its length; two transfers crossing one common link take 2*T1
   each; disjoint ones, even long ones in parallel rows, take T1. A far flow (7 hops) slows a flow
   on one of its dimension-1 links, which proves it crosses intermediate hosts' links and not a
   crossbar or backbone.

Usage: verify_torus.py VERIFY_TORUS_BINARY WORKDIR [--quick]
Prints a markdown table and exits non-zero if any check fails.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smpi_platform  # noqa: E402
from smpi_run import SMPI_CONFIG  # noqa: E402

BYTES = 100_000_000
BANDWIDTH = 1.8e9


def smpirun(binary, platform, hosts, args, workdir):
    hostfile = os.path.join(workdir, "hosts.verify")
    with open(hostfile, "w") as f:
        f.write("".join(h + "\n" for h in hosts))
    command = ["smpirun", "-np", str(len(hosts)), *SMPI_CONFIG, "-platform", platform, "-hostfile", hostfile,
               binary, *args]
    proc = subprocess.run(command, capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr


def check_routes(binary, workdir, spec, rows):
    dims = smpi_platform.parse_torus(spec)
    outdir = os.path.join(workdir, spec.replace(":", "-"))
    smpi_platform.write_platform(outdir, dims, smpi_platform.row_major_coords(dims), spec)
    platform = os.path.join(outdir, "platform.xml")
    status, out = smpirun(binary, platform, ["n0"], ["routes", "n", *map(str, dims)], workdir)
    line = next((ln for ln in out.splitlines() if ln.startswith("routes:")), out.strip()[-200:])
    rows.append((f"routes on {spec}, dimension 0 fastest", line, status == 0))
    reverse = list(reversed(dims))
    if reverse != dims:
        status_r, out_r = smpirun(binary, platform, ["n0"], ["routes", "n", *map(str, reverse)], workdir)
        line_r = next((ln for ln in out_r.splitlines() if ln.startswith("routes:")), "no result")
        rows.append((f"routes on {spec} read as dimension 0 slowest", line_r + " (must fail)", status_r != 0))
    return status == 0


def transfer_times(binary, platform, pairs, workdir):
    senders = [a for a, _ in pairs]
    receivers = [b for _, b in pairs]
    status, out = smpirun(binary, platform, senders + receivers, ["transfer", str(BYTES)], workdir)
    times = {}
    for ln in out.splitlines():
        if ln.startswith("transfer:"):
            fields = ln.split()
            times[(fields[1], fields[3])] = float(ln.rsplit("time=", 1)[1])
    return status, times


def check_contention(binary, workdir, rows):
    dims = [8, 4, 2]
    outdir = os.path.join(workdir, "torus-8x4x2")
    smpi_platform.write_platform(outdir, dims, smpi_platform.row_major_coords(dims), "torus:8x4x2")
    platform = os.path.join(outdir, "platform.xml")
    t1 = BYTES / BANDWIDTH
    # (description, pairs, expected time of each transfer in units of T1)
    cases = [
        ("n0->n2 alone (2 hops along dim 0)", [("n0", "n2")], [1]),
        ("n0->n2 with n1->n3: both cross link 1->2", [("n0", "n2"), ("n1", "n3")], [2, 2]),
        ("n0->n4 (4 hops) with n2->n3: the far flow crosses link 2->3", [("n0", "n4"), ("n2", "n3")], [2, 2]),
        ("n0->n4 with n8->n12: same length, parallel rows, no shared link", [("n0", "n4"), ("n8", "n12")], [1, 1]),
        ("n0->n52 = (4,2,1), 7 hops, with n12->n20: both cross dim-1 link 12->20",
         [("n0", "n52"), ("n12", "n20")], [2, 2]),
        ("n0->n52 with n44->n52 from (4,1,1): different links into n52 (dim 2 vs dim 1)",
         [("n0", "n52"), ("n44", "n52")], [1, 1]),
    ]
    ok_all = True
    for text, pairs, expected in cases:
        status, times = transfer_times(binary, platform, pairs, workdir)
        got = [times.get(p) for p in pairs]
        ok = status == 0 and all(g is not None and abs(g / (e * t1) - 1) < 1e-3 for g, e in zip(got, expected))
        shown = ", ".join(f"{g / t1:.3f} T1" if g else "missing" for g in got)
        rows.append((text, f"{shown} (expected {', '.join(f'{e} T1' for e in expected)})", ok))
        ok_all &= ok
    return ok_all


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary, workdir = os.path.abspath(argv[0]), argv[1]
    quick = "--quick" in argv[2:]
    os.makedirs(workdir, exist_ok=True)
    rows = []
    ok = check_routes(binary, workdir, "torus:8x4x2", rows)
    if not quick:
        ok &= check_routes(binary, workdir, "torus:8x8x8", rows)
        ok &= check_routes(binary, workdir, "torus:4x4x4x4x2", rows)
    ok &= check_contention(binary, workdir, rows)
    ok &= all(r[2] for r in rows)
    print("| check | result | |")
    print("|---|---|---|")
    for text, result, passed in rows:
        print(f"| {text} | {result} | {'pass' if passed else 'FAIL'} |")
    print(f"\nT1 = {BYTES} bytes / 1.8 GB/s = {BYTES / BANDWIDTH * 1e3:.2f} ms")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
