#!/bin/sh
# on_one_rank.sh RANK VAR=VALUE command...: runs command with VAR=VALUE set on world rank RANK only
# (Open MPI and MPICH name the rank in their launch environment), to test settings that differ.
rank=$1
assignment=$2
shift 2
me=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-}}
if [ "$me" = "$rank" ]; then export "$assignment"; fi
exec "$@"
