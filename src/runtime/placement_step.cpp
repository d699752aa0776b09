// The placement step of the reorder protocol: translation, or records gathered on the communicator.
#include "placement_step.hpp"

#include "state.hpp"

namespace rankmap::runtime {

namespace {

/// Every process's record in `records`; a process that cannot make its own marks it failed, so
/// that every process finds the same failure in the records.
void gather_records(MPI_Comm comm, int rank, std::vector<ProcessRecord>& records, StepGuard& guard) noexcept {
  try {
    fault_point(Step::placement);
    records[rank] = own_record();
  } catch (const std::exception& e) {
    log_step_failure(rank, Step::placement, e.what());
    records[rank].status = record_failed;
  }
  guard.mpi(Step::placement, PMPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, records.data(),
                                            sizeof(ProcessRecord), MPI_BYTE, comm));
}

}  // namespace

std::vector<ProcessRecord> record_buffer(int comm_size) {
  if (runtime_state().world_initialised) return {};
  return std::vector<ProcessRecord>(static_cast<std::size_t>(comm_size));
}

PlacementResult place_processes(MPI_Comm comm, int rank, bool gather, std::vector<ProcessRecord>& records,
                                StepGuard& guard) noexcept {
  PlacementResult placed;
  if (gather) {
    gather_records(comm, rank, records, guard);
    // The records are the same everywhere, so every process takes part in the exchange inside.
    guard.always(Step::placement, [&] { placed = placement_from_records_of(comm, records); });
  } else {
    guard.local(Step::placement, [&] { placed = world_placement_of(comm); });
  }
  if (!guard.ok() || placed.placement) return placed;
  std::string note;
  try {
    note = "no placement: " + placed.failure;
  } catch (...) {
  }
  guard.fail(Step::placement, std::move(note));
  return placed;
}

}  // namespace rankmap::runtime
