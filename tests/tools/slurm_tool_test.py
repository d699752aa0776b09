#!/usr/bin/env python3
"""Tool test of `rankmap slurm`: topology.conf and `scontrol show topology` output give the same
network allocation file, and `rankmap emit --format slurm-hostfile` names its hosts; bad files and
node lists are refused by file, line and name.

Usage: slurm_tool_test.py RANKMAP WORKDIR
"""
import os
import sys

from tool_checks import expect, run


CONF = """# two leaf switches under one top switch
SwitchName=s0 Nodes=nid[001-003] LinkSpeed=100
SwitchName=s1 Nodes=nid004,nid[010-012]
SwitchName=top Switches=s[0-1]
"""
SCONTROL = """SwitchName=s0 Level=0 LinkSpeed=1 Nodes=nid[001-003] 
SwitchName=s1 Level=0 LinkSpeed=1 Nodes=nid004,nid[010-012] 
SwitchName=top Level=1 LinkSpeed=1 Switches=s[0-1] 
"""


def main(rankmap, workdir):
    os.makedirs(workdir, exist_ok=True)
    at = lambda name: os.path.join(workdir, name)  # noqa: E731
    for name, text in (("topology.conf", CONF), ("scontrol.txt", SCONTROL), ("bad.conf", CONF + "SwitchName=x Nodes=a[3-1]\n")):
        with open(at(name), "w") as f:
            f.write(text)

    # s0's nodes are 0..2 of fattree:2;4,2;1,1;1,1 (d1 = 4: s1 has four), s1's are 4..7.
    want = ["network fattree:2;4,2;1,1;1,1", "node nid012 7 slots=2", "node nid002 1 slots=2", "node nid010 5 slots=2"]
    for source in ("topology.conf", "scontrol.txt"):
        run(rankmap, "slurm", "--topology", at(source), "--nodes", "nid012,nid002,nid010", "--slots", "2",
            "-o", at(source + ".alloc"))
        with open(at(source + ".alloc")) as f:
            lines = [line.split("#")[0].strip() for line in f if line.split("#")[0].strip()]
        expect(lines == want, f"{source}: allocation file {lines}, expected {want}")
    whole = run(rankmap, "slurm", "--topology", at("topology.conf")).stdout
    expect(whole.count("\nnode ") + whole.startswith("node ") == 7, f"every node of the tree: {whole}")

    # 6 tasks, 2 per node; the identity mapping keeps rank t on slot t: nid012 nid012 nid002 nid002 nid010 nid010.
    with open(at("ring6.mtx"), "w") as f:  # a ring of 6 tasks
        f.write("%%MatrixMarket matrix coordinate real general\n6 6 6\n")
        f.write("".join(f"{i + 1} {(i + 1) % 6 + 1} 1\n" for i in range(6)))
    run(rankmap, "map", "--graph", at("ring6.mtx"), "--alloc-file", at("topology.conf.alloc"), "--ppn", "2",
        "--algo", "identity", "-o", at("id.map"))
    hosts = run(rankmap, "emit", "--mapping", at("id.map"), "--format", "slurm-hostfile", "--alloc-file",
                at("topology.conf.alloc"), "--ppn", "2").stdout.split()
    expect(hosts == ["nid012", "nid012", "nid002", "nid002", "nid010", "nid010"], f"slurm-hostfile: {hosts}")

    refused = run(rankmap, "slurm", "--topology", at("bad.conf"), ok=False).stderr
    expect("bad.conf:5: Nodes=: hostlist 'a[3-1]': range '3-1' goes down" in refused, refused)
    refused = run(rankmap, "slurm", "--topology", at("topology.conf"), "--nodes", "nid[001-002],nid099", ok=False).stderr
    expect("--nodes: node 'nid099' is under no leaf switch of" in refused, refused)
    print("slurm_tool_test: OK")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
