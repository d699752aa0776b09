// rankmap_comm_hilbert: a duplicate of a communicator whose ranks follow the Hilbert order of the nodes.
#include "agreement.hpp"
#include "comm_tools.hpp"
#include "placement_step.hpp"
#include "state.hpp"
#include "step_guard.hpp"

#include <rankmap/mapping/hilbert.hpp>

namespace rankmap::runtime {

namespace {

bool disabled() noexcept {
  try {
    const RuntimeState& s = runtime_state();
    return s.config.ok() && s.config.config.disable;
  } catch (...) {
    return false;  // the agreement then falls back on every process
  }
}

/// Without a world placement, the buffer for every process's record; false when it failed.
bool prepare_records(int size, std::vector<ProcessRecord>& records) noexcept {
  try {
    fault_point(Step::prepare);
    records = record_buffer(size);
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace

int comm_hilbert(MPI_Comm comm, MPI_Comm* newcomm) {
  if (comm == MPI_COMM_NULL) return MPI_ERR_COMM;
  int inter = 0, size = 0, rank = 0;
  PMPI_Comm_test_inter(comm, &inter);
  PMPI_Comm_size(comm, &size);
  PMPI_Comm_rank(comm, &rank);
  if (inter || size == 1 || disabled()) return PMPI_Comm_dup(comm, newcomm);
  std::vector<ProcessRecord> records;
  const bool prepared = prepare_records(size, records);
  const Agreement agreement = agree(comm, LocalCheck{}, prepared, 0);
  if (agreement.fallback != Agreement::Fallback::none) return PMPI_Comm_dup(comm, newcomm);
  StepGuard g(comm, rank);
  const PlacementResult placed = place_processes(comm, rank, agreement.gather_placement, records, g);
  // Every process computes the same order from the same placement; without coordinates the
  // stand-in grid is a line of nodes, so the order groups processes by node.
  MPI_Group group = MPI_GROUP_NULL;
  g.local(Step::renumber_group, [&] {
    const std::vector<SlotId> order = mapping::hilbert_slot_order(placed.placement->alloc);
    g.mpi(Step::renumber_group, renumbered_group(comm, order, &group));
  });
  MPI_Comm renumbered = MPI_COMM_NULL;
  if (!g.settle()) g.mpi(Step::renumbered_comm, create_renumbered(comm, group, &renumbered));
  free_group(&group);
  if (!g.settle() && renumbered != MPI_COMM_NULL) {
    *newcomm = renumbered;
    return MPI_SUCCESS;
  }
  free_comm(&renumbered);
  return PMPI_Comm_dup(comm, newcomm);
}

}  // namespace rankmap::runtime
