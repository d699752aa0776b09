// Communicator helpers: renumbering by a known permutation, Hilbert order, data migration.
#pragma once

#include <rankmap/types.hpp>

#include <mpi.h>

#include <vector>

namespace rankmap::runtime {

/// The group of `comm`'s processes in which rank t is old rank slot_of[t] (local). Returns an MPI code.
int renumbered_group(MPI_Comm comm, const std::vector<SlotId>& slot_of, MPI_Group* group) noexcept;

/// The communicator of `group` (from renumbered_group), with comm's error handler; MPI_COMM_NULL on
/// processes outside the group. Collective on comm; every process passes the same group. Returns an MPI code.
int create_renumbered(MPI_Comm comm, MPI_Group group, MPI_Comm* renumbered) noexcept;

/// Frees a communicator or group unless it is null, so that cleanup can run on every path. Two
/// names, since MPICH's handles are all int.
void free_comm(MPI_Comm* comm) noexcept;
void free_group(MPI_Group* group) noexcept;

/// Completes `request` by testing it with sleeps in between, from 50 µs doubling to 1 ms: a process
/// that waits leaves the CPU to those that work when processes share cores (busy-polling MPIs would
/// otherwise slow them down by the oversubscription factor). A collective progresses only while its
/// processes test it, so each process that forwards it can add up to one pause (1 ms per level of a
/// broadcast's tree).
int wait_politely(MPI_Request* request) noexcept;

/// See rankmap_comm_hilbert() in rankmap.h. Returns an MPI error code; a duplicate in the old
/// order when no placement is available.
int comm_hilbert(MPI_Comm comm, MPI_Comm* newcomm);

/// See rankmap_migrate() in rankmap.h. Returns MPI_ERR_ARG when the communicators do not hold
/// the same processes, else the code of the exchange.
int migrate(MPI_Comm oldcomm, MPI_Comm newcomm, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
            void* recvbuf, int recvcount, MPI_Datatype recvtype);

}  // namespace rankmap::runtime
