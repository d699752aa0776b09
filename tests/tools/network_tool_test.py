#!/usr/bin/env python3
"""Tool test on fat-trees and dragonflies: `rankmap eval`, `map`, `emit`, `render` and `place` read the
new specs and network allocation files, print values worked out by hand, write SimGrid host names, and
refuse grid-only algorithms and routings by name.

Usage: network_tool_test.py RANKMAP WORKDIR
"""
import json
import os
import sys

from tool_checks import expect, run

TREE = "fattree:2;4,4;1,2;1,2"  # 16 nodes, leaves of 4, 2 top switches, 2 links from each leaf to each


def main(rankmap, workdir):
    os.makedirs(workdir, exist_ok=True)
    at = lambda name: os.path.join(workdir, name)  # noqa: E731
    with open(at("ring4.mtx"), "w") as f:  # a ring of 4 tasks, 1 byte each way
        f.write("%%MatrixMarket matrix coordinate real general\n4 4 8\n")
        f.write("".join(f"{i + 1} {(i + 1) % 4 + 1} 1\n{(i + 1) % 4 + 1} {i + 1} 1\n" for i in range(4)))
    with open(at("alloc.txt"), "w") as f:
        f.write(f"# three nodes of {TREE}\nnetwork {TREE}\nnode n5 5\nnode n12 12 slots=2\nnode n0 0\n")
    job = ["--graph", at("ring4.mtx"), "--alloc-file", at("alloc.txt"), "--ppn", "1"]

    # Tasks 0..3 on nodes 5, 12, 12, 0. Edges 0-1, 2-3 and 3-0 join different leaves (4 hops), 1-2
    # stays on node 12: hop-bytes 2 * (4 + 0 + 4 + 4) = 24. Node 12 sends 2 bytes up its one link.
    result = json.loads(run(rankmap, "eval", *job, "--json").stdout)
    expect(result["network"] == TREE and "grid" not in result, f"eval names the network: {result}")
    expect(result["hop_bytes"] == 24, f"hop-bytes 24: {result}")
    expect(result["mcl_adaptive"] == 2 and result["mcl_dmodk"] == 2, f"MCL 2 under both routings: {result}")
    expect(result["mcl_lower_bound"] == 1, f"lower bound 1 (1 forced byte per task through 1 link): {result}")
    expect(json.loads(run(rankmap, "eval", *job, "--json", "--routing", "dmodk").stdout)["routing"] == "dmodk",
           "eval --routing dmodk")

    refused = run(rankmap, "eval", *job, "--routing", "minimal", ok=False).stderr
    expect("does not apply to " + TREE in refused and "dmodk (the default) or adaptive" in refused, refused)
    refused = run(rankmap, "map", *job, "--algo", "hilbert", "-o", at("h.map"), ok=False).stderr
    expect("hilbert works on the coordinates of a torus or mesh" in refused, refused)

    # map with tree, then emit: the allocation file's host names; on a whole machine, SimGrid's names.
    run(rankmap, "map", *job, "--algo", "tree", "--routing", "dmodk", "-o", at("t.map"))
    hosts = run(rankmap, "emit", "--mapping", at("t.map"), "--format", "smpi-hostfile", "--alloc-file",
                at("alloc.txt"), "--ppn", "1").stdout.split()
    expect(sorted(hosts) == ["n0", "n12", "n12", "n5"], f"emit uses the file's hosts: {hosts}")
    whole = ["--graph", at("ring4.mtx"), "--topology", "dragonfly:2,1;1,1;2,1;1", "--ppn", "1"]
    run(rankmap, "map", *whole, "--algo", "mahd+refine", "--routing", "minimal", "-o", at("d.map"))
    hosts = run(rankmap, "emit", "--mapping", at("d.map"), "--format", "smpi-hostfile", "--topology",
                "dragonfly:2,1;1,1;2,1;1", "--ppn", "1").stdout.split()
    expect(sorted(hosts) == ["n0", "n1", "n2", "n3"], f"emit writes SimGrid's host names: {hosts}")

    run(rankmap, "render", *job, "--mapping", at("t.map"), "--routing", "dmodk", "-o", at("t.svg"))
    expect("class=\"histogram\"" in open(at("t.svg")).read(), "render draws a histogram off grids")

    # place reads a network allocation file as PREFIX.coords.
    prefix = at("profile")
    with open(prefix + ".mtx", "w") as out, open(at("ring4.mtx")) as ring:
        out.write(ring.read())
    with open(prefix + ".coords", "w") as f:
        f.write(f"network {TREE}\nnode n5 5\nnode n12 12 slots=2\nnode n0 0\n")
    report = run(rankmap, "place", "--profile", prefix, "--format", "smpi-hostfile", "-o", at("placed.txt"),
                 "--routing", "dmodk", "--algo", "tree").stdout
    expect("wrote" in report and len(open(at("placed.txt")).read().split()) == 4, report)
    print("network_tool_test: eval, map, emit, render and place on fat-trees and dragonflies: ok")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2])
