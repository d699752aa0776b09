// Waiting for a non-blocking collective without spinning, for processes that share cores.
#include "comm_tools.hpp"

#include <algorithm>
#include <ctime>

namespace rankmap::runtime {

namespace {

/// The first pause, doubled after every test that finds the request pending, up to the longest.
/// The waiting processes test 20,000 times a second at 50 µs: with 63 of them beside rank 0's
/// mapping on 2 cores (MPICH, the demo's 64 ranks), scoring 64 tasks took 0.1 to 17.6 ms and the
/// step 214 to 246 ms of its 200. Doubling to 1 ms, the step took 129 to 151 ms
/// (bench/results/2026-11-29-s39). A process whose request completes during a pause learns of it at
/// most one pause late: 1 ms per level of the broadcast's tree after a step of up to 200 ms.
constexpr long kFirstPauseNs = 50'000;
constexpr long kLongestPauseNs = 1'000'000;

}  // namespace

int wait_politely(MPI_Request* request) noexcept {
  int done = 0;
  int rc = PMPI_Test(request, &done, MPI_STATUS_IGNORE);
  for (long pause_ns = kFirstPauseNs; rc == MPI_SUCCESS && !done; pause_ns = std::min(2 * pause_ns, kLongestPauseNs)) {
    const timespec pause{0, pause_ns};
    nanosleep(&pause, nullptr);
    rc = PMPI_Test(request, &done, MPI_STATUS_IGNORE);
  }
  return rc;
}

}  // namespace rankmap::runtime
