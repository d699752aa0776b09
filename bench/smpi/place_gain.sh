#!/usr/bin/env bash
# The gain of `rankmap place` for a program that calls no topology function, predicted and simulated.
#
# 1. Profile: bench/smpi/programs/halo3d (a 3D halo exchange on a process grid of its own making,
#    MPI_Dims_create only), built against Open MPI, runs under the preload layer with
#    RANKMAP_PROFILE on an emulated torus, one host, oversubscribed.
# 2. Place: `rankmap place --format smpi-hostfile` maps the profile with the default algorithm and
#    prints the predicted change; `--algo identity` writes the launcher's order the same way.
# 3. Simulate: the same source built with smpicc runs in SimGrid on that torus, once with each host
#    file. The program checks its own halos (check=ok), and both runs must print the same result line
#    apart from the timings.
# Prints a markdown section for BENCHMARKS.md.
#
#   bench/smpi/place_gain.sh OPENMPI_BUILD_DIR [TORUS] [PPN]     defaults torus:4x4x4, 2
set -euo pipefail
build=$(realpath "${1:?usage: $0 OPENMPI_BUILD_DIR [TORUS] [PPN]}")
torus=${2:-torus:4x4x4}
ppn=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
rankmap="$build/tools/rankmap"
preload="$build/src/pmpi/librankmap_preload.so"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
extents=${torus#torus:}
nodes=$(( $(echo "$extents" | tr 'x' '*') ))
ranks=$((nodes * ppn))
args=(-n 16 -i 4)

mpicc.openmpi -O2 -DRANKMAP_REAL_MPI -o "$work/halo3d.real" "$here/programs/halo3d.c" "$here/programs/bench_common.c" -lm
smpicc -O2 -o "$work/halo3d.smpi" "$here/programs/halo3d.c" "$here/programs/bench_common.c" -lm 2>/dev/null
python3 "$here/smpi_platform.py" full "$torus" "$work/platform" >/dev/null

timeout 900 mpiexec.openmpi --oversubscribe --allow-run-as-root --mca btl self,vader --bind-to none -n "$ranks" \
  -x LD_PRELOAD="$preload" -x RANKMAP_COORDS="emulate:$torus,ppn=$ppn" -x RANKMAP_PROFILE="$work/halo3d" \
  "$work/halo3d.real" "${args[@]}" >"$work/real.out" 2>&1
grep -q "check=ok" "$work/real.out" || { cat "$work/real.out"; exit 1; }

"$rankmap" place --profile "$work/halo3d" --format smpi-hostfile -o "$work/placed.hosts" >"$work/place.out"
"$rankmap" place --profile "$work/halo3d" --format smpi-hostfile --algo identity -o "$work/launcher.hosts" >/dev/null

simulate() {
  python3 "$here/smpi_run.py" --binary "$work/halo3d.smpi" --platform "$work/platform/platform.xml" \
    --hostfile "$work/$1.hosts" --label "order=$1" --results "$work/sim.jsonl" -- "${args[@]}" >/dev/null
}
simulate launcher
simulate placed

field() { python3 -c "import json,sys; r=[json.loads(l) for l in open('$work/sim.jsonl')]; print(r[$1]['$2'])"; }
same_result() {
  python3 - "$work/sim.jsonl" "$work/real.out" <<'EOF'
import json, re, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
timing = {"comm_time", "total_time", "sim_wall_s", "sim_cpu_s", "sim_peak_mb", "order"}
strip = lambda r: {k: v for k, v in r.items() if k not in timing}
real = next(l for l in open(sys.argv[2]) if l.startswith("SMPI_RESULT"))
real = " ".join(w for w in real.split() if not re.match(r"(comm_time|total_time)=", w))
print("yes" if strip(runs[0]) == strip(runs[1]) and runs[0]["check"] == "ok" else "NO", "|", real)
EOF
}
launcher_comm=$(field 0 comm_time)
placed_comm=$(field 1 comm_time)
read -r same real_line <<<"$(same_result | tr -d '|')"

echo "## Placing a program that calls no topology function (issue 15)"
echo
echo "Made with \`bench/smpi/place_gain.sh\` at commit $(git -C "$src" rev-parse --short HEAD), $(date -u +%Y-%m-%d);"
echo "one run. \`halo3d\` (bench/smpi/programs, ${args[*]}) on $ranks ranks, $torus with $ppn ranks per node:"
echo "profiled under Open MPI with the preload layer (\`RANKMAP_PROFILE\`, coordinates emulated), placed"
echo "with \`rankmap place\` and its default algorithm, then simulated in SimGrid SMPI on the same torus"
echo "(bench/smpi/smpi_run.py's settings) in the launcher's order and in the placed order."
echo
echo "\`rankmap place\` printed:"
echo
echo '```'
sed "s|$work/||g" "$work/place.out"
echo '```'
echo
echo "| order | simulated communication time (s) | ratio |"
echo "|---|---:|---:|"
printf '| launcher'"'"'s order | %.4e | 1.00 |\n' "$launcher_comm"
printf '| placed (`rankmap place`) | %.4e | %.2f |\n' "$placed_comm" "$(python3 -c "print($placed_comm / $launcher_comm)")"
echo
echo "Same result in both simulations (every field of the result line but the timings; halo3d checks"
echo "every ghost cell and the conservation of its Jacobi sum): **$same**. The profiled run printed:"
echo "\`$real_line\`."
