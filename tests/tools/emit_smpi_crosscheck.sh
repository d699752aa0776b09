#!/usr/bin/env bash
# `rankmap emit --format smpi-hostfile` and bench/smpi/hostfile.py must write the same host file for
# the same mapping: they convert rankmap's row-major nodes to SimGrid's TORUS numbering independently.
#   emit_smpi_crosscheck.sh RANKMAP HOSTFILE_PY WORKDIR
set -euo pipefail
rankmap=$1 hostfile_py=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
"$rankmap" gen random --ranks 48 --seed 3 -o g.mtx > /dev/null
"$rankmap" map --graph g.mtx --topology torus:2x3x4 --ppn 2 --algo mahd+refine --time-budget-ms 500 -o m.map > /dev/null
for prefix in n host-; do
  "$rankmap" emit --mapping m.map --format smpi-hostfile --topology torus:2x3x4 --ppn 2 --prefix "$prefix" -o ours
  python3 "$hostfile_py" --topology torus:2x3x4 --ppn 2 --prefix "$prefix" --mapping m.map -o theirs
  cmp ours theirs
done
# A coordinate file names the hosts itself; both take its names in file order.
printf 'grid 2x3x4 torus=111\nnode hA 1 2 3\nnode hB 0 0 0\nnode hC 0 1 2\n' > alloc.coords
"$rankmap" gen random --ranks 6 --seed 5 -o g6.mtx > /dev/null
"$rankmap" map --graph g6.mtx --alloc-file alloc.coords --ppn 2 --algo mahd+refine --time-budget-ms 200 -o a.map > /dev/null
"$rankmap" emit --mapping a.map --format smpi-hostfile --alloc-file alloc.coords --ppn 2 -o ours
python3 "$hostfile_py" --alloc-file alloc.coords --ppn 2 --mapping a.map -o theirs
cmp ours theirs
echo "emit and hostfile.py agree"
