// RANKMAP_PROFILE: what the interposed MPI calls report to the traffic profiler, and its output.
#pragma once

#include "traffic_counts.hpp"

#include <mpi.h>

#include <atomic>
#include <cstdint>

namespace rankmap::runtime::profiler {

namespace detail {
extern std::atomic<bool> on;
}

/// True when this job records a profile. Decided once at MPI_Init, the same on every process.
inline bool enabled() noexcept { return detail::on.load(std::memory_order_relaxed); }

/// At the end of the interposed MPI_Init: starts recording when RANKMAP_PROFILE is set and the
/// init exchange found the settings valid and the same everywhere.
void start() noexcept;

// Each records a call that MPI completed successfully, so that every argument was valid. None
// throws; a failure to record (out of memory) marks the profile incomplete.

/// A point-to-point send of `count` items of `type` to `dest` in `comm` (any send mode).
void send(MPI_Comm comm, int dest, MPI_Count count, MPI_Datatype type) noexcept;
/// A persistent send was initialised: remembered, and counted at every MPI_Start of `request`.
void persistent_send(MPI_Request request, MPI_Comm comm, int dest, MPI_Count count, MPI_Datatype type) noexcept;
/// MPI_Start / MPI_Startall of these requests (persistent sends among them are counted).
void started(int n, const MPI_Request requests[]) noexcept;
/// MPI_Request_free of a request (a persistent send is forgotten).
void freed(MPI_Request request) noexcept;

/// Neighbourhood collectives: the same block to every out-neighbour, or blocks sized per neighbour.
void neighbours_uniform(MPI_Comm comm, MPI_Count count, MPI_Datatype type) noexcept;
void neighbours_counts(MPI_Comm comm, const int counts[], MPI_Datatype type) noexcept;
void neighbours_typed(MPI_Comm comm, const int counts[], const MPI_Datatype types[]) noexcept;
/// How many blocks a neighbourhood collective on `comm` sends (0 without a topology).
int out_degree(MPI_Comm comm) noexcept;

/// A collective on `comm` to which this process contributed `bytes`.
void collective(CollectiveOp op, MPI_Comm comm, std::uint64_t bytes) noexcept;
/// Bytes of `count` items of `type`; 0 for MPI_DATATYPE_NULL.
std::uint64_t bytes_of(MPI_Count count, MPI_Datatype type) noexcept;

/// MPI_Pcontrol: with RANKMAP_PROFILE_PHASES=pcontrol, the next traffic belongs to a new phase.
void pcontrol() noexcept;

/// At the start of the interposed MPI_Finalize, on every process: gathers the counts to rank 0,
/// which writes the profile files and reports them.
void finish() noexcept;

}  // namespace rankmap::runtime::profiler
