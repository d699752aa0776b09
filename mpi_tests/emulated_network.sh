#!/bin/sh
# emulated_network.sh NAME command...: runs the command with RANKMAP_COORDS emulating a fat-tree or
# a dragonfly. Their specs hold semicolons, which CMake's lists would split, so they live here.
case $1 in
  tapered_fattree) RANKMAP_COORDS='emulate:fattree:2;4,4;1,1;1,1,ppn=2' ;;
  dragonfly) RANKMAP_COORDS='emulate:dragonfly:2,1;2,1;2,1;2' ;;
  *) echo "emulated_network.sh: unknown network '$1'" >&2; exit 2 ;;
esac
export RANKMAP_COORDS
shift
exec "$@"
