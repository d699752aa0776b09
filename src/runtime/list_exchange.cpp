// The one message per process that moves adjacency lists to their new owners.
#include "list_exchange.hpp"

namespace rankmap::runtime {

namespace {

constexpr int kTag = 0;

/// Receives a message this process has no room for. Truncation is expected here, so MPI must
/// return the error rather than call the communicator's error handler.
void drain(MPI_Comm comm, int from) noexcept {
  MPI_Errhandler handler;
  if (PMPI_Comm_get_errhandler(comm, &handler) != MPI_SUCCESS) return;
  PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int nothing = 0;
  PMPI_Recv(&nothing, 0, MPI_INT, from, kTag, comm, MPI_STATUS_IGNORE);
  PMPI_Comm_set_errhandler(comm, handler);
  PMPI_Errhandler_free(&handler);
}

/// The number of ints in the message waiting from `from`, or -1 when MPI failed.
int probe_count(MPI_Comm comm, int from) noexcept {
  MPI_Status status;
  int count = 0;
  if (PMPI_Probe(from, kTag, comm, &status) != MPI_SUCCESS) return -1;
  if (PMPI_Get_count(&status, MPI_INT, &count) != MPI_SUCCESS || count == MPI_UNDEFINED) return -1;
  return count;
}

}  // namespace

void exchange_lists(MPI_Comm renumbered, int to, int from, const std::vector<int>& mine, std::vector<int>& lists,
                    StepGuard& guard) noexcept {
  MPI_Request send = MPI_REQUEST_NULL;
  guard.mpi(Step::exchange_lists,
            PMPI_Isend(mine.data(), static_cast<int>(mine.size()), MPI_INT, to, kTag, renumbered, &send));
  const int count = probe_count(renumbered, from);
  if (count < 0) guard.mpi(Step::exchange_lists, MPI_ERR_OTHER);
  guard.local(Step::exchange_lists, [&] { lists.resize(static_cast<std::size_t>(count)); });
  if (guard.ok())
    guard.mpi(Step::exchange_lists,
              PMPI_Recv(lists.data(), count, MPI_INT, from, kTag, renumbered, MPI_STATUS_IGNORE));
  else if (count >= 0)
    drain(renumbered, from);
  guard.mpi(Step::exchange_lists, PMPI_Wait(&send, MPI_STATUS_IGNORE));
}

}  // namespace rankmap::runtime
