// The real Tofu call: FJMPI_Topology_get_coords in the system view (compiled where mpi-ext.h declares it).
#include "providers.hpp"

#include <mpi.h>
#include <mpi-ext.h>

namespace rankmap::coords {

namespace {

int system_coords(int world_rank, int coords[6]) {
  // FJMPI_TOFU_SYS: the node's absolute place in the machine, not relative to the job's shape.
  return FJMPI_Topology_get_coords(MPI_COMM_WORLD, world_rank, FJMPI_TOFU_SYS, 6, coords) == FJMPI_SUCCESS ? 0 : 1;
}

}  // namespace

TofuCoordsFn tofu_system_call() { return &system_coords; }

}  // namespace rankmap::coords
