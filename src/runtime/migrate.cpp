// rankmap_migrate: the block of old rank v goes to new rank v, one send and one receive per process.
#include "comm_tools.hpp"

namespace rankmap::runtime {

int migrate(MPI_Comm oldcomm, MPI_Comm newcomm, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
            void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  if (oldcomm == MPI_COMM_NULL || newcomm == MPI_COMM_NULL) return MPI_ERR_COMM;
  MPI_Group old_group, new_group;
  PMPI_Comm_group(oldcomm, &old_group);
  PMPI_Comm_group(newcomm, &new_group);
  int same = MPI_UNEQUAL;
  PMPI_Group_compare(old_group, new_group, &same);
  int old_rank = 0, new_rank = 0, source = MPI_UNDEFINED;
  PMPI_Comm_rank(oldcomm, &old_rank);
  PMPI_Comm_rank(newcomm, &new_rank);
  if (same != MPI_UNEQUAL) PMPI_Group_translate_ranks(old_group, 1, &new_rank, new_group, &source);
  PMPI_Group_free(&old_group);
  PMPI_Group_free(&new_group);
  if (same == MPI_UNEQUAL) return MPI_ERR_ARG;
  // Vertex v's data sits at old rank v and belongs to new rank v; this process, new rank t,
  // receives vertex t's block from the process whose old rank is t. A private duplicate keeps
  // the exchange from matching the application's own messages.
  MPI_Comm exchange;
  int rc = PMPI_Comm_dup(newcomm, &exchange);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, old_rank, 0, recvbuf, recvcount, recvtype, source, 0, exchange,
                     MPI_STATUS_IGNORE);
  PMPI_Comm_free(&exchange);
  return rc;
}

}  // namespace rankmap::runtime
