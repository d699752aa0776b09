// Communicator helpers: renumbering by a known permutation, Hilbert order, data migration.
#pragma once

#include <rankmap/types.hpp>

#include <mpi.h>

#include <vector>

namespace rankmap::runtime {

/// The communicator whose rank t is the process at old rank slot_of[t] of `comm`, MPI_COMM_NULL on
/// processes no rank maps to. Collective; every process must pass the same permutation.
MPI_Comm renumbered_communicator(MPI_Comm comm, const std::vector<SlotId>& slot_of);

/// See rankmap_comm_hilbert() in rankmap.h. Returns an MPI error code; a duplicate in the old
/// order when no placement is available.
int comm_hilbert(MPI_Comm comm, MPI_Comm* newcomm);

/// See rankmap_migrate() in rankmap.h. Returns MPI_ERR_ARG when the communicators do not hold
/// the same processes, else the code of the exchange.
int migrate(MPI_Comm oldcomm, MPI_Comm newcomm, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
            void* recvbuf, int recvcount, MPI_Datatype recvtype);

}  // namespace rankmap::runtime
