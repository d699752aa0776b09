// What every interposed symbol shares: default visibility, a per-thread re-entry guard, Fortran types.
#pragma once

#include <mpi.h>

/// The preload library is built with hidden visibility; only the interposed symbols are exported.
#define RANKMAP_INTERPOSE extern "C" __attribute__((visibility("default")))

namespace rankmap::pmpi {

/// Counts how deep the calling thread is inside interposed symbols. MPICH's Fortran bindings call
/// the C MPI_* functions, so MPI_INIT -> pmpi_init_ -> MPI_Init arrives here twice on one thread;
/// only the outermost entry acts. Per thread, because other threads may enter MPI concurrently.
class ReentryGuard {
 public:
  ReentryGuard() noexcept { ++depth(); }
  ~ReentryGuard() { --depth(); }
  ReentryGuard(const ReentryGuard&) = delete;
  ReentryGuard& operator=(const ReentryGuard&) = delete;
  bool outermost() const noexcept { return depth() == 1; }
  /// True inside an interposed call of this thread, whose guard will record what it does.
  static bool inside() noexcept { return depth() > 0; }

 private:
  // initial-exec: one %fs-relative load instead of a __tls_get_addr call per profiled message;
  // fine for a library loaded at start-up (LD_PRELOAD or linked), which this one always is.
  static int& depth() noexcept {
    static thread_local int value __attribute__((tls_model("initial-exec"))) = 0;
    return value;
  }
};

/// Whether a Waitsome or Testsome completed anything: `outcount` is MPI_UNDEFINED when every
/// request was null. C and Fortran alike (an INTEGER is an int).
inline bool some_completed(const int* outcount) { return *outcount > 0 && *outcount != MPI_UNDEFINED; }

/// Gathers the world placement after a successful initialisation; never throws.
void after_init(const ReentryGuard& guard) noexcept;

}  // namespace rankmap::pmpi
