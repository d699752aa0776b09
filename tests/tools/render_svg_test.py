#!/usr/bin/env python3
"""Tool test of `rankmap render`: the SVG it writes parses as XML and shows what it should.

For a 2D mesh, a 3D torus and a 5D torus it renders a ring graph under the identity and under a
reversed mapping, alone and side by side, and checks with xml.etree that the file is an SVG
document with one hottest channel per view, one panel per plane up to 3D and a histogram beyond.

Usage: render_svg_test.py RANKMAP WORKDIR
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def run(*args):
    proc = subprocess.run(list(args), capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {proc.stderr}")
    return proc.stdout


def write_mapping(path, hashes, slot_of, algorithm):
    with open(path, "w") as f:
        f.write(f"rankmap-mapping 1\ntasks {len(slot_of)}\ngraph {hashes['graph_hash']}\n"
                f"allocation {hashes['allocation_hash']}\nalgorithm {algorithm}\n")
        f.write("".join(f"{t} {s}\n" for t, s in enumerate(slot_of)))


def check(rankmap, workdir, topology, tasks, planes):
    graph = os.path.join(workdir, f"ring{tasks}.mtx")
    with open(graph, "w") as f:
        f.write(f"%%MatrixMarket matrix coordinate real general\n{tasks} {tasks} {tasks}\n")
        f.write("".join(f"{i + 1} {(i + 1) % tasks + 1} 1000\n" for i in range(tasks)))
    job = ["--graph", graph, "--topology", topology, "--ppn", "1"]
    hashes = json.loads(run(rankmap, "eval", *job, "--json"))
    name = topology.replace(":", "-")
    identity = os.path.join(workdir, f"{name}-identity.map")
    reverse = os.path.join(workdir, f"{name}-reverse.map")
    write_mapping(identity, hashes, list(range(tasks)), "identity")
    write_mapping(reverse, hashes, [(7 * t) % tasks for t in range(tasks)], "stride7")
    for mappings in ([identity], [identity, reverse]):
        out = os.path.join(workdir, f"{name}-{len(mappings)}.svg")
        run(rankmap, "render", *job, *sum((["--mapping", m] for m in mappings), []), "-o", out)
        root = ET.parse(out).getroot()
        assert root.tag == SVG + "svg", f"{out}: root element is {root.tag}"
        classes = [e.get("class") for e in root.iter()]
        assert classes.count("view") == len(mappings), f"{out}: {classes.count('view')} views"
        assert classes.count("hottest") >= len(mappings), f"{out}: the hottest channel is not marked"
        if planes:
            assert classes.count("panel") == planes * len(mappings), f"{out}: {classes.count('panel')} panels"
            assert classes.count("histogram") == 0
        else:
            assert classes.count("histogram") == len(mappings), f"{out}: no histogram"
        assert any(e.get("data-channel") for e in root.iter(SVG + "line")), f"{out}: no channel drawn"
        print(f"{out}: valid SVG, {len(mappings)} view(s)")


def main(argv):
    rankmap, workdir = argv[0], argv[1]
    os.makedirs(workdir, exist_ok=True)
    check(rankmap, workdir, "mesh:8x8", 64, 1)
    check(rankmap, workdir, "torus:4x4x4", 64, 4)
    check(rankmap, workdir, "torus:2x2x2x2x4", 64, 0)
    # A bad mapping argument is an error naming the flag, not a crash.
    proc = subprocess.run([rankmap, "render", "--graph", os.path.join(workdir, "ring64.mtx"), "--topology",
                           "torus:4x4x4", "--ppn", "1", "--mapping", os.path.join(workdir, "missing.map"), "-o",
                           os.path.join(workdir, "x.svg")], capture_output=True, text=True)
    assert proc.returncode != 0 and "missing.map" in proc.stderr, proc.stderr
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
