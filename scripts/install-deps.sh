#!/usr/bin/env bash
# Installs the Debian 12 packages rankmap needs to build, test and benchmark. Safe to run twice.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git python3 ca-certificates
  gfortran clang libclang-rt-14-dev
  libopenmpi-dev openmpi-bin libmpich-dev mpich
  libhwloc-dev libboost-graph-dev libgtest-dev libgmock-dev libbenchmark-dev
  coinor-libcbc-dev libscotch-dev libmetis-dev libcli11-dev nlohmann-json3-dev
  libsimgrid-dev
  librsvg2-bin  # rsvg-convert: the PNG of bench/smpi's link-load picture
  lammps gromacs  # lmp and gmx_mpi (Open MPI): real applications under the preload, mpi_tests/apps
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
