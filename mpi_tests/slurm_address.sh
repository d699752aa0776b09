#!/bin/sh
# slurm_address.sh RANK KIND command...: sets Slurm's topology/tree variables as srun does on a tree
# (a top switch, a leaf switch, this host), except on world rank RANK, which gets a KIND of bad
# value: `malformed` (two names for a three-element pattern) or `foreign` (another node's name, as a
# launcher forwarding mpiexec's environment would hand it on).
rank=$1
kind=$2
shift 2
me=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-}}
host=$(hostname -s)
export SLURM_TOPOLOGY_ADDR_PATTERN=switch.switch.node
export SLURM_TOPOLOGY_ADDR="top.leaf0.$host"
if [ "$me" = "$rank" ]; then
  case $kind in
    malformed) export SLURM_TOPOLOGY_ADDR="leaf0.$host" ;;
    foreign) export SLURM_TOPOLOGY_ADDR="top.leaf1.othernode" ;;
  esac
fi
exec "$@"
