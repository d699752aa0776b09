// The shape of every profiled interposed call: the MPI call, then, if it succeeded, the record.
#pragma once

#include "interpose.hpp"
#include "profiler.hpp"

namespace rankmap::pmpi {

/// Makes `call` and then, if the profiler is on, the call succeeded and this is the outermost
/// interposed entry of the thread (MPICH's Fortran bindings call the C functions, which must not
/// count the same message twice), runs `record`. Recording after success means every argument was
/// valid, so reading sizes and ranks cannot fail where MPI itself would have reported an error.
template <typename Call, typename Record>
[[gnu::noinline]] int profiled_call(Call& call, Record& record) {
  const ReentryGuard guard;
  const int rc = call();
  if (rc == MPI_SUCCESS && guard.outermost()) record();
  return rc;
}

/// Without a profile the wrapper is a test and a tail call: the counting path is kept out of line,
/// so that the common case saves no registers.
template <typename Call, typename Record>
int profiled(Call&& call, Record&& record) {
  if (__builtin_expect(!runtime::profiler::enabled(), 1)) return call();
  return profiled_call(call, record);
}

}  // namespace rankmap::pmpi
