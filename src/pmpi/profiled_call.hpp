// The shape of every profiled interposed call: the MPI call, then, if it succeeded, the record.
#pragma once

#include "interpose.hpp"
#include "profiler.hpp"

/// The body of a profiled C wrapper. Without a profile it is a test and a tail call to `CALL`.
/// With one, `RECORD` runs if the call succeeded and this is the thread's outermost interposed
/// entry (MPICH's Fortran bindings call the C functions, which must not count the same message
/// twice). Recording after success means every argument was valid, so reading sizes and ranks
/// cannot fail where MPI itself would have reported an error. A macro rather than a function
/// taking lambdas: closures over every argument cost a few dozen instructions per message even
/// when nothing is recorded.
#define RANKMAP_PROFILED_BODY(CALL, RECORD)                                          \
  if (__builtin_expect(!rankmap::runtime::profiler::enabled(), 1)) return CALL;     \
  const rankmap::pmpi::ReentryGuard guard;                                          \
  const int rc = CALL;                                                              \
  if (rc == MPI_SUCCESS && guard.outermost()) {                                     \
    RECORD;                                                                         \
  }                                                                                 \
  return rc
