// The per-role byte rules of the collectives.
#include "collective_bytes.hpp"

#include "profiler.hpp"

namespace rankmap::runtime::collective_bytes {

namespace {

/// On an inter-communicator the root's side passes MPI_ROOT or MPI_PROC_NULL and sends no block of its own.
bool root_side(int root) { return root == MPI_ROOT || root == MPI_PROC_NULL; }

}  // namespace

int peers(MPI_Comm comm) {
  int inter = 0, size = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter)
    PMPI_Comm_remote_size(comm, &size);
  else
    PMPI_Comm_size(comm, &size);
  return size;
}

std::uint64_t to_root(bool in_place, int root, MPI_Count sendcount, MPI_Datatype sendtype, MPI_Count recvcount,
                      MPI_Datatype recvtype) {
  if (root_side(root)) return 0;
  return in_place ? profiler::bytes_of(recvcount, recvtype) : profiler::bytes_of(sendcount, sendtype);
}

std::uint64_t from_root(bool in_place, int root, MPI_Count sendcount, MPI_Datatype sendtype, MPI_Count recvcount,
                        MPI_Datatype recvtype) {
  if (root_side(root)) return 0;
  return in_place ? profiler::bytes_of(sendcount, sendtype) : profiler::bytes_of(recvcount, recvtype);
}

int own_count(MPI_Comm comm, const int counts[], bool valid) {
  if (!valid || !counts) return 0;
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  return counts[rank];
}

std::uint64_t times_peers(MPI_Comm comm, std::uint64_t bytes) {
  return bytes * static_cast<std::uint64_t>(peers(comm));
}

std::uint64_t sum(MPI_Comm comm, const int counts[], MPI_Datatype type) {
  std::uint64_t items = 0;
  for (int i = 0, n = peers(comm); i < n; ++i) items += counts[i] > 0 ? static_cast<std::uint64_t>(counts[i]) : 0;
  return profiler::bytes_of(static_cast<MPI_Count>(items), type);
}

std::uint64_t sum_typed(MPI_Comm comm, const int counts[], const MPI_Datatype types[]) {
  std::uint64_t total = 0;
  for (int i = 0, n = peers(comm); i < n; ++i) total += counts[i] > 0 ? profiler::bytes_of(counts[i], types[i]) : 0;
  return total;
}

std::uint64_t reduce_scatter(MPI_Comm comm, const int recvcounts[], MPI_Datatype type) {
  int size = 0;
  PMPI_Comm_size(comm, &size);
  std::uint64_t items = 0;
  for (int i = 0; i < size; ++i) items += recvcounts[i] > 0 ? static_cast<std::uint64_t>(recvcounts[i]) : 0;
  return profiler::bytes_of(static_cast<MPI_Count>(items), type);
}

}  // namespace rankmap::runtime::collective_bytes
