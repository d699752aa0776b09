// Step 3 of the reorder protocol, shared by the engine and rankmap_comm_hilbert: where the processes
// of a communicator run, found so that a failure on one process leaves none of them waiting.
#pragma once

#include "placement.hpp"
#include "step_guard.hpp"

#include <mpi.h>

#include <vector>

namespace rankmap::runtime {

/// The buffer for every process's record when there is no world placement (the C API without the
/// preload layer), else empty. Allocated before the agreement. May throw.
std::vector<ProcessRecord> record_buffer(int comm_size);

/// The placement of `comm`'s processes: a translation of the world placement (local), or, with
/// `gather`, one MPI_Allgather of records into `records` (from record_buffer), in which a process
/// that cannot make its record says so. A placement every process finds missing, or this process's
/// own failure, marks `guard` failed at step placement; the next settle makes it known everywhere.
PlacementResult place_processes(MPI_Comm comm, int rank, bool gather, std::vector<ProcessRecord>& records,
                                StepGuard& guard) noexcept;

}  // namespace rankmap::runtime
