// Communicator helpers of the C API that need no mapping: Hilbert order and data migration.
#pragma once

#include <mpi.h>

namespace rankmap::runtime {

/// See rankmap_comm_hilbert() in rankmap.h. Returns an MPI error code; a duplicate in the old
/// order when no placement is available.
int comm_hilbert(MPI_Comm comm, MPI_Comm* newcomm);

/// See rankmap_migrate() in rankmap.h. Returns MPI_ERR_ARG when the communicators do not hold
/// the same processes, else the code of the exchange.
int migrate(MPI_Comm oldcomm, MPI_Comm newcomm, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
            void* recvbuf, int recvcount, MPI_Datatype recvtype);

}  // namespace rankmap::runtime
