#!/usr/bin/env bash
# Records the traffic profiles of real programs that the quality table's real family maps
# (bench/data/profiles/README.md): Debian's LAMMPS (an LJ melt on 4x4x4 and 8x8x8 process grids) and
# GROMACS (SPC water with PME, 48 PP ranks in 4x4x3 cells and 16 PME ranks), each run once under the
# preload layer with RANKMAP_PROFILE, Open MPI (both programs link it), oversubscribed on this host.
# The 512-rank LAMMPS run takes about 11 minutes on 2 cores; set SKIP_512=1 to leave it out.
# usage: bench/record_real_profiles.sh OPENMPI_BUILD_DIR [OUT_DIR]   (default OUT_DIR bench/data/profiles)
set -euo pipefail
build=$(realpath "${1:?usage: $0 OPENMPI_BUILD_DIR [OUT_DIR]}")
src=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath "${2:-$src/bench/data/profiles}")
preload="$build/src/pmpi/librankmap_preload.so"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
launch=(mpiexec.openmpi --oversubscribe --allow-run-as-root --mca btl self,vader --bind-to none)

# profile NAME RANKS COMMAND...: one profiled run in its own directory, bounded in time; keeps the matrix.
profile() {
  local name=$1 ranks=$2; shift 2
  mkdir -p "$work/$name"
  ( cd "$work/$name" && timeout 1200 "${launch[@]}" -n "$ranks" -x LD_PRELOAD="$preload" \
      -x RANKMAP_COORDS=emulate:torus:"$ranks" -x RANKMAP_PROFILE="$work/$name/profile" "$@" >run.log 2>&1 ) || true
  # Open MPI may report an untidy exit of an oversubscribed job after MPI_Finalize; the profile is
  # written inside MPI_Finalize, so its summary line is what decides.
  grep -h "rankmap: profile of $ranks processes" "$work/$name/run.log" || { tail -20 "$work/$name/run.log"; exit 1; }
  cp "$work/$name/profile.mtx" "$out/$name.mtx"
}

# The LJ melt of mpi_tests/apps/lj_melt_profile.in on a P x P x P grid (map xyz: no topology call),
# the box scaled so that each rank holds about 250 atoms.
lammps_input() {
  sed -e "s/processors      2 2 2 map xyz/processors      $1 $1 $1 map xyz/" \
      -e "s/block 0 10 0 10 0 10/block 0 $2 0 $2 0 $2/" -e "s/run             250/run             $3/" \
      "$src/mpi_tests/apps/lj_melt_profile.in" >"$work/lj$1.in"
}
lammps_input 4 20 100
profile lammps-lj-64 64 lmp -in "$work/lj4.in" -log none -echo none
if [ "${SKIP_512:-0}" != 1 ]; then
  lammps_input 8 32 50
  profile lammps-lj-512 512 lmp -in "$work/lj8.in" -log none -echo none
fi

# GROMACS: 3x3x3 copies of spc216.gro (17,172 atoms), mpi_tests/apps/spc_water.mdp with 50 steps.
gmx=$work/gmx
mkdir -p "$gmx"
cp "$src/mpi_tests/apps/spc_water.top" "$gmx/topol.top"
sed 's/nsteps          = 100/nsteps          = 50/' "$src/mpi_tests/apps/spc_water.mdp" >"$gmx/md.mdp"
( cd "$gmx" && gmx_mpi -quiet -nobackup solvate -cs spc216.gro -box 5.58618 5.58618 5.58618 -o water.gro -p topol.top \
    && gmx_mpi -quiet -nobackup grompp -f md.mdp -c water.gro -p topol.top -o md.tpr -po mdout.mdp ) >"$work/gmx.log" 2>&1
profile gromacs-spc-64 64 gmx_mpi -quiet -nobackup mdrun -s "$gmx/md.tpr" -npme 16 -dd 4 4 3 -ddorder cartesian \
  -dlb no -notunepme -ntomp 1
echo "record_real_profiles: wrote $out (commit $(git -C "$src" rev-parse --short HEAD))"
