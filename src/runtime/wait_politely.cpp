// Waiting for a non-blocking collective without spinning, for processes that share cores.
#include "comm_tools.hpp"

#include <ctime>

namespace rankmap::runtime {

int wait_politely(MPI_Request* request) noexcept {
  int done = 0;
  int rc = PMPI_Test(request, &done, MPI_STATUS_IGNORE);
  while (rc == MPI_SUCCESS && !done) {
    const timespec pause{0, 50'000};
    nanosleep(&pause, nullptr);
    rc = PMPI_Test(request, &done, MPI_STATUS_IGNORE);
  }
  return rc;
}

}  // namespace rankmap::runtime
