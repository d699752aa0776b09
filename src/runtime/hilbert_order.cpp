// rankmap_comm_hilbert: a duplicate of a communicator whose ranks follow the Hilbert order of the nodes.
#include "agreement.hpp"
#include "comm_tools.hpp"
#include "state.hpp"

#include <rankmap/mapping/hilbert.hpp>

namespace rankmap::runtime {

int comm_hilbert(MPI_Comm comm, MPI_Comm* newcomm) {
  if (comm == MPI_COMM_NULL) return MPI_ERR_COMM;
  int inter = 0, size = 0;
  PMPI_Comm_test_inter(comm, &inter);
  PMPI_Comm_size(comm, &size);
  const RuntimeState& s = runtime_state();
  if (inter || size == 1 || (s.config.ok() && s.config.config.disable)) return PMPI_Comm_dup(comm, newcomm);
  const Agreement agreement = agree(comm, LocalCheck{}, true, 0);
  if (!agreement.fallback.empty()) return PMPI_Comm_dup(comm, newcomm);
  const PlacementResult placement = placement_of(comm, agreement.gather_placement);
  if (!placement.placement) return PMPI_Comm_dup(comm, newcomm);
  // Every process computes the same order from the same placement; no further agreement is needed.
  // Without coordinates the stand-in grid is a line of nodes, so the order groups processes by node.
  *newcomm = renumbered_communicator(comm, mapping::hilbert_slot_order(placement.placement->alloc));
  return MPI_SUCCESS;
}

}  // namespace rankmap::runtime
