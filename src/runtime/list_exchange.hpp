// Step 8 of the reorder protocol: each process's adjacency lists move to the process that now plays its vertex.
#pragma once

#include "step_guard.hpp"

#include <mpi.h>

#include <vector>

namespace rankmap::runtime {

/// Sends `mine` to rank `to` and receives one message from rank `from` into `lists`, both on the
/// private renumbered communicator. Every process sends and receives exactly one message whatever
/// fails locally, so that its partners never wait: a process that cannot hold the incoming message
/// receives it without keeping it. Failures are recorded in `guard` (step exchange_lists).
void exchange_lists(MPI_Comm renumbered, int to, int from, const std::vector<int>& mine, std::vector<int>& lists,
                    StepGuard& guard) noexcept;

}  // namespace rankmap::runtime
