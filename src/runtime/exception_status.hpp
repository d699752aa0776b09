// The one place where an exception turns into a status: C API codes, and the plain MPI call for
// the interposed constructors of C and Fortran alike.
#pragma once

#include "report.hpp"

#include <rankmap.h>
#include <rankmap/types.hpp>

#include <new>

namespace rankmap::runtime {

/// The C API status of the exception being handled; call only inside a catch block.
/// `input_status` is what an InputError means to the caller: RANKMAP_ERR_INPUT for a setting or a
/// file (the topology entry points), RANKMAP_ERR_ARG where it reports the caller's own arguments
/// (the balance entry points).
inline int status_of_current_exception(int input_status) noexcept {
  try {
    throw;
  } catch (const InputError&) {
    return input_status;
  } catch (const std::bad_alloc&) {
    return RANKMAP_ERR_NOMEM;
  } catch (...) {
    return RANKMAP_ERR_INTERNAL;
  }
}

/// Runs `engine`, or `plain` (the MPI call exactly as the program made it) if `engine` throws, so
/// that no exception unwinds into C or Fortran and the program goes on as without rankmap. The
/// engine does not throw by design: every failure in it is settled among the processes, which then
/// make the plain call together (docs/runtime.md, "Failures after the agreement"). This guard only
/// keeps a broken promise from unwinding into the caller.
template <typename Engine, typename Plain>
int call_engine_or_plain(Engine&& engine, Plain&& plain) noexcept {
  try {
    return engine();
  } catch (...) {
    try {
      log_once("engine-exception", "unexpected failure; calling MPI directly");
    } catch (...) {
    }
    return plain();
  }
}

}  // namespace rankmap::runtime
