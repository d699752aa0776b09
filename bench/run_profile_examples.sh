#!/usr/bin/env bash
# Profiles two real programs with RANKMAP_PROFILE and prints a markdown section for BENCHMARKS.md:
# LAMMPS (Debian's lmp, an LJ melt on a 2x2x2 grid of 8 ranks, mpi_tests/apps/lj_melt_profile.in)
# and the project's halo example (examples/halo_sendrecv, no topology call, 64 ranks), with what
# `rankmap place` predicts for the halo on an emulated torus. The byte counts are exact; LAMMPS's
# structure is checked by mpi_tests/apps/check_lammps_profile.py.
# usage: bench/run_profile_examples.sh OPENMPI_BUILD_DIR   (targets rankmap_preload, rankmap_cli,
#        halo_sendrecv built; lmp installed)
set -euo pipefail
build=$(realpath "${1:?usage: $0 OPENMPI_BUILD_DIR}")
src=$(cd "$(dirname "$0")/.." && pwd)
preload="$build/src/pmpi/librankmap_preload.so"
rankmap="$build/tools/rankmap"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
launch=(mpiexec.openmpi --oversubscribe --allow-run-as-root --mca btl self,vader --bind-to none)

summary() { awk -v k="$2" '$1 == k {print $2}' "$1.summary"; }

echo "## Profiles of real programs (issue 15)"
echo
echo "Made with \`bench/run_profile_examples.sh\` at commit $(git -C "$src" rev-parse --short HEAD), $(date -u +%Y-%m-%d),"
echo "Open MPI, under the preload layer with \`RANKMAP_PROFILE\`. Bytes are exact counts of what the"
echo "program sent; collectives are counted apart from the graph."
echo
echo "| program | ranks | edges | point-to-point bytes | messages | collective calls | collective bytes | share of bytes in the graph |"
echo "|---|---|---|---|---|---|---|---|"
( cd "$work" && "${launch[@]}" -n 8 -x LD_PRELOAD="$preload" -x RANKMAP_COORDS=emulate:torus:8 \
    -x RANKMAP_PROFILE="$work/lammps" lmp -in "$src/mpi_tests/apps/lj_melt_profile.in" -log none -echo none \
    >"$work/lammps.out" 2>&1 )
"${launch[@]}" -n 64 -x LD_PRELOAD="$preload" -x RANKMAP_COORDS=emulate:torus:4x4x2,ppn=2 \
  -x RANKMAP_PROFILE="$work/halo" "$build/examples/halo_sendrecv/halo_sendrecv" >"$work/halo.out" 2>&1
for p in lammps halo; do
  name=$([ $p = lammps ] && echo "LAMMPS LJ melt, 4000 atoms, 250 steps" || echo "halo_sendrecv (8x8 grid, 5 iterations)")
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$(summary "$work/$p" processes)" \
    "$(summary "$work/$p" edges)" "$(summary "$work/$p" p2p_bytes)" "$(summary "$work/$p" p2p_messages)" \
    "$(summary "$work/$p" collective_calls)" "$(summary "$work/$p" collective_bytes)" "$(summary "$work/$p" graph_share)"
done
echo
echo "LAMMPS's graph has the shape of its spatial decomposition (\`check_lammps_profile.py\`): every rank"
echo "sends to its 3 distinct face neighbours of the periodic 2x2x2 grid only, more along later"
echo "dimensions (ghost atoms of earlier ones are forwarded), and nothing point-to-point to the 4 others:"
echo
echo '```'
python3 "$src/mpi_tests/apps/check_lammps_profile.py" "$work/lammps.mtx" --grid 2x2x2 | grep -E "^rank|verdict" | sed "s|$work/||"
echo '```'
echo
echo "What \`rankmap place\` predicts for the halo example's profile on the emulated \`torus:4x4x2\` with 2"
echo "ranks per node (default algorithm, default budget), launcher's order → placed:"
echo
echo '```'
"$rankmap" place --profile "$work/halo" --format openmpi-rankfile -o "$work/halo.rankfile" | grep -vE "^(wrote|launch)" | sed "s|$work/||"
echo '```'
