// What a process contributes to a collective, in bytes, read only from the arguments MPI uses.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace rankmap::runtime::collective_bytes {

// MPI ignores some arguments depending on the process's role (the root's send buffer with
// MPI_IN_PLACE, the receive arguments elsewhere, everything on an inter-communicator's
// non-participating side); those may be garbage, so each rule reads only what MPI reads.

/// The processes a collective's per-peer arrays have entries for (the remote group's size for an
/// inter-communicator).
int peers(MPI_Comm comm);

/// Gather(v): the data sent to the root, or the root's own block when it gathers in place.
std::uint64_t to_root(bool in_place, int root, MPI_Count sendcount, MPI_Datatype sendtype, MPI_Count recvcount,
                      MPI_Datatype recvtype);
/// Scatter(v): the block received from the root, or the root's own block when it scatters in place.
std::uint64_t from_root(bool in_place, int root, MPI_Count sendcount, MPI_Datatype sendtype, MPI_Count recvcount,
                        MPI_Datatype recvtype);
/// counts[own rank] where `counts` is valid (`valid`), else 0.
int own_count(MPI_Comm comm, const int counts[], bool valid);
/// bytes times the number of processes a block goes to (the remote group's size for an inter-communicator).
std::uint64_t times_peers(MPI_Comm comm, std::uint64_t bytes);
/// Σ counts[i] × size(type) over the peers.
std::uint64_t sum(MPI_Comm comm, const int counts[], MPI_Datatype type);
/// Σ counts[i] × size(types[i]) over the peers.
std::uint64_t sum_typed(MPI_Comm comm, const int counts[], const MPI_Datatype types[]);
/// Reduce_scatter: Σ recvcounts[i] × size(type) over the local group.
std::uint64_t reduce_scatter(MPI_Comm comm, const int recvcounts[], MPI_Datatype type);

}  // namespace rankmap::runtime::collective_bytes
