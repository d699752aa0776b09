// The shape of every profiled interposed call: the MPI call, then, if it succeeded, the record.
#pragma once

#include "interpose.hpp"
#include "profiler.hpp"

/// The recording part of a profiled C wrapper: `RECORD` runs if `CALL` succeeded and this is the
/// thread's outermost interposed entry (MPICH's Fortran bindings call the C functions, which must
/// not count the same message twice). Recording after success means every argument was valid, so
/// reading sizes and ranks cannot fail where MPI itself would have reported an error.
#define RANKMAP_RECORDED_BODY(CALL, RECORD)         \
  const rankmap::pmpi::ReentryGuard guard;          \
  const int rc = CALL;                              \
  if (rc == MPI_SUCCESS && guard.outermost()) {     \
    RECORD;                                         \
  }                                                 \
  return rc

/// Defines the interposed `MPI_<NAME> PARAMS`. Without a profile it is a test and a tail call to
/// PMPI_<NAME>; with one, a tail call to an out-of-line function that calls it and records. Out of
/// line, because the registers that the record keeps across the MPI call would otherwise be saved
/// and restored on every call of every program that preloads rankmap without profiling (BENCHMARKS.md,
/// "Profiler overhead"). A macro rather than a function taking lambdas for the same reason.
#define RANKMAP_PROFILED(NAME, PARAMS, ARGS, RECORD)                                 \
  [[gnu::noinline]] static int recorded_##NAME PARAMS {                              \
    RANKMAP_RECORDED_BODY(PMPI_##NAME ARGS, RECORD);                                 \
  }                                                                                  \
  RANKMAP_INTERPOSE int MPI_##NAME PARAMS {                                          \
    if (__builtin_expect(!rankmap::runtime::profiler::enabled(), 1)) return PMPI_##NAME ARGS; \
    return recorded_##NAME ARGS;                                                     \
  }

/// The same for a point-to-point send, whose common case (profiler::counted_in_advance) is counted
/// before the call, which is then a tail call. The counting is a function of its own, reached by a
/// tail call too, so that the registers it needs are saved only when a profile is recorded. `VALID`
/// is what MPI would also check and the profiler cannot (the request pointer of a non-blocking send).
#define RANKMAP_PROFILED_SEND_CALL(NAME, PARAMS, ARGS, COMM, DEST, COUNT, TYPE, TAG, VALID)                     \
  [[gnu::noinline]] static int recorded_##NAME PARAMS {                                                       \
    RANKMAP_RECORDED_BODY(PMPI_##NAME ARGS, rankmap::runtime::profiler::send(COMM, DEST, COUNT, TYPE));       \
  }                                                                                                           \
  [[gnu::noinline]] static int counted_##NAME PARAMS {                                                        \
    if (rankmap::pmpi::ReentryGuard::inside() ||                                                              \
        ((VALID) && rankmap::runtime::profiler::counted_in_advance(COMM, DEST, COUNT, TYPE, TAG)))            \
      return PMPI_##NAME ARGS;                                                                                \
    return recorded_##NAME ARGS;                                                                              \
  }                                                                                                           \
  RANKMAP_INTERPOSE int MPI_##NAME PARAMS {                                                                   \
    if (__builtin_expect(!rankmap::runtime::profiler::enabled(), 1)) return PMPI_##NAME ARGS;                 \
    return counted_##NAME ARGS;                                                                               \
  }

/// Defines the interposed `MPI_<NAME> PARAMS` of a call that completes communication (a receive, a
/// wait, a test): under RANKMAP_PROFILE_PHASES=steps, a successful outermost call for which `DONE`
/// holds ends the process's step; otherwise it is a test and a tail call to PMPI_<NAME>.
#define RANKMAP_COMPLETION(NAME, PARAMS, ARGS, DONE)                                                     \
  [[gnu::noinline]] static int completing_##NAME PARAMS {                                                \
    RANKMAP_RECORDED_BODY(PMPI_##NAME ARGS, if (DONE) rankmap::runtime::profiler::completed());          \
  }                                                                                                      \
  RANKMAP_INTERPOSE int MPI_##NAME PARAMS {                                                              \
    if (__builtin_expect(!rankmap::runtime::profiler::steps_enabled(), 1)) return PMPI_##NAME ARGS;      \
    return completing_##NAME ARGS;                                                                       \
  }

/// For wrappers that read an argument before the MPI call changes it: the same test, then the
/// recording body inline.
#define RANKMAP_PROFILED_BODY(CALL, RECORD)                                      \
  if (__builtin_expect(!rankmap::runtime::profiler::enabled(), 1)) return CALL; \
  RANKMAP_RECORDED_BODY(CALL, RECORD)
