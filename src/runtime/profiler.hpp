// RANKMAP_PROFILE: what the interposed MPI calls report to the traffic profiler, and its output.
#pragma once

#include "config.hpp"
#include "step_phases.hpp"
#include "traffic_counts.hpp"

#include <mpi.h>

#include <atomic>
#include <cstdint>

namespace rankmap::runtime::profiler {

// The hot path of a counted send is inline, over globals that are constant-initialised and
// thread-local variables of the initial-exec model (one %fs-relative load, no __tls_get_addr): a few dozen
// instructions against the hundreds of the MPI call (BENCHMARKS.md, "Profiler overhead").
namespace detail {
extern std::atomic<bool> on;
/// The phase traffic belongs to now when no clock decides it: 1 without phases, under pcontrol the
/// count of MPI_Pcontrol calls plus 1; -1 under time windows, where time_window_now() decides, and
/// under steps, where the step log does (add_unclocked).
extern std::atomic<int> clockless_phase;
extern std::atomic<bool> steps_on;  ///< RANKMAP_PROFILE_PHASES=steps, while recording
/// The process's step log while steps are recorded without a lock (below MPI_THREAD_MULTIPLE), for
/// the fast path; null otherwise.
extern StepLog* unlocked_steps;
extern std::atomic<unsigned> types_freed;  ///< bumped by MPI_Type_free: a handle may come back as another type
extern int world_size;                     ///< of MPI_COMM_WORLD, written before recording starts
extern unsigned tag_ub;                    ///< MPI_TAG_UB of MPI_COMM_WORLD, likewise

/// What the hot path keeps per thread, in one block so that it costs one TLS offset load.
struct ThreadState {
  MPI_Datatype last_type;  ///< the last type sized (never MPI_DATATYPE_NULL once one was); with
  unsigned last_epoch;     ///< the types_freed at the time (~0 before the first: matches nothing), and
  std::uint64_t last_size; ///< its size in bytes (0 when MPI_UNDEFINED)
  ThreadTraffic* counts;   ///< null until the thread's first record
};
// __thread, not thread_local: a C++ thread_local declared extern is read through a wrapper call
// in case another translation unit initialises it dynamically.
extern __thread ThreadState thread_state __attribute__((tls_model("initial-exec")));

int time_window_now();
void add_unclocked(int world_dest, std::uint64_t bytes);
void end_step() noexcept;
ThreadTraffic& register_thread();
std::uint64_t bytes_elsewhere(MPI_Count count, MPI_Datatype type, unsigned epoch);
int world_rank_elsewhere(MPI_Comm comm, int rank);
void mark_incomplete() noexcept;

inline int world_rank(MPI_Comm comm, int rank) {
  if (comm == MPI_COMM_WORLD) return rank >= 0 ? rank : -1;
  return world_rank_elsewhere(comm, rank);
}

inline ThreadTraffic& thread_counts() {
  ThreadTraffic* counts = thread_state.counts;
  return counts ? *counts : register_thread();
}

inline void add(int world_dest, std::uint64_t bytes) {
  if (world_dest < 0) return;
  const int phase = clockless_phase.load(std::memory_order_relaxed);
  if (phase > 0)
    thread_counts().add_send(phase, world_dest, bytes);
  else
    add_unclocked(world_dest, bytes);
}
}  // namespace detail

/// True when this job records a profile. Decided once at MPI_Init, the same on every process.
inline bool enabled() noexcept { return detail::on.load(std::memory_order_relaxed); }

/// At the end of the interposed MPI_Init: starts recording when RANKMAP_PROFILE is set and the
/// init exchange found the settings valid and the same everywhere.
void start() noexcept;

// Each records a call that MPI completed successfully, so that every argument was valid. None
// throws; a failure to record (out of memory) marks the profile incomplete.

/// Bytes of `count` items of `type`; 0 for MPI_DATATYPE_NULL.
inline std::uint64_t bytes_of(MPI_Count count, MPI_Datatype type) noexcept {
  if (count <= 0) return 0;
  const detail::ThreadState& t = detail::thread_state;
  const unsigned epoch = detail::types_freed.load(std::memory_order_relaxed);
  if (type == t.last_type && epoch == t.last_epoch) return static_cast<std::uint64_t>(count) * t.last_size;
  return detail::bytes_elsewhere(count, type, epoch);
}

/// A point-to-point send of `count` items of `type` to `dest` in `comm` (any send mode). Inlined
/// into each send wrapper's recording function, which then saves its registers once.
[[gnu::always_inline]] inline void send(MPI_Comm comm, int dest, MPI_Count count, MPI_Datatype type) noexcept {
  try {
    detail::add(detail::world_rank(comm, dest), bytes_of(count, type));
  } catch (...) {
    detail::mark_incomplete();
  }
}
/// The common send, counted before the MPI call so that its wrapper can end in a tail call to PMPI:
/// on MPI_COMM_WORLD, to a valid destination with a valid tag, of the type this thread sized last,
/// to a peer already counted in the current phase (under steps: the current step's last peer). Such
/// a call has no argument MPI could reject (but the buffer and, for MPI_Isend, the request, which
/// the caller checks), so it is counted as if recorded after success. Anything else returns false,
/// counting nothing, and the wrapper records after the call. Inline and without calls: no stack
/// frame, no saved registers (BENCHMARKS.md, "Profiler overhead").
[[gnu::always_inline]] inline bool counted_in_advance(MPI_Comm comm, int dest, int count, MPI_Datatype type,
                                                      int tag) noexcept {
  const detail::ThreadState& t = detail::thread_state;
  if (comm != MPI_COMM_WORLD || type != t.last_type || count < 0 ||
      static_cast<unsigned>(dest) >= static_cast<unsigned>(detail::world_size) ||
      static_cast<unsigned>(tag) > detail::tag_ub || t.counts == nullptr ||
      t.last_epoch != detail::types_freed.load(std::memory_order_relaxed))
    return false;
  // Under time windows and steps the phase is -1, which no thread's current phase is; under steps
  // the send may extend the current step's last entry instead.
  const std::uint64_t bytes = static_cast<std::uint64_t>(count) * t.last_size;
  if (t.counts->add_known_send(detail::clockless_phase.load(std::memory_order_relaxed), dest, bytes)) return true;
  StepLog* const steps = detail::unlocked_steps;
  return steps && steps->add_to_last_peer(dest, bytes);
}

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
/// MPI_Type_free: a freed handle may come back as another type, so remembered sizes are dropped.
inline void type_freed() noexcept { detail::types_freed.fetch_add(1, std::memory_order_relaxed); }

/// True while RANKMAP_PROFILE_PHASES=steps records: the interposed completions report to completed().
inline bool steps_enabled() noexcept { return detail::steps_on.load(std::memory_order_relaxed); }
/// A receive, wait or test completed, or a blocking collective returned: under steps, the sends
/// since the last completion become a step (step_phases.hpp).
inline void completed() noexcept {
  if (steps_enabled()) detail::end_step();
}

/// MPI_Pcontrol: with RANKMAP_PROFILE_PHASES=pcontrol, the next traffic belongs to a new phase.
void pcontrol() noexcept;

/// At the start of the interposed MPI_Finalize, on every process: gathers the counts to rank 0,
/// which writes the profile files and reports them.
void finish() noexcept;

}  // namespace rankmap::runtime::profiler
