// The interposed C collectives, blocking and non-blocking, and the neighbourhood collectives, for RANKMAP_PROFILE.
#include "profiled_call.hpp"

#include "collective_bytes.hpp"

namespace profiler = rankmap::runtime::profiler;
using rankmap::runtime::CollectiveOp;
namespace bytes = rankmap::runtime::collective_bytes;

// Each blocking collective and its non-blocking twin share one record: PARAMS and ARGS are the
// blocking call's, RECORD counts what the process contributed. The blocking one has also waited
// for other processes, which ends a step (RANKMAP_PROFILE_PHASES=steps).

#define RANKMAP_TWIN(NAME, INAME, PARAMS, ARGS, RECORD)                                                    \
  RANKMAP_PROFILED(NAME, (RANKMAP_UNPAREN PARAMS), ARGS, RECORD; profiler::completed())         \
  RANKMAP_PROFILED(INAME, (RANKMAP_UNPAREN PARAMS, MPI_Request* request),                       \
                              (RANKMAP_UNPAREN ARGS, request), RECORD)
#define RANKMAP_UNPAREN(...) __VA_ARGS__

RANKMAP_PROFILED(Barrier, (MPI_Comm comm), (comm),
                 profiler::collective(CollectiveOp::barrier, comm, 0); profiler::completed())
RANKMAP_PROFILED(Ibarrier, (MPI_Comm comm, MPI_Request* request), (comm, request),
                            profiler::collective(CollectiveOp::barrier, comm, 0))

RANKMAP_TWIN(Bcast, Ibcast, (void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm),
             (buf, count, type, root, comm),
             profiler::collective(CollectiveOp::bcast, comm, profiler::bytes_of(count, type)))

RANKMAP_TWIN(Reduce, Ireduce,
             (const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm),
             (sendbuf, recvbuf, count, type, op, root, comm),
             profiler::collective(CollectiveOp::reduce, comm, profiler::bytes_of(count, type)))

RANKMAP_TWIN(Allreduce, Iallreduce,
             (const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
             (sendbuf, recvbuf, count, type, op, comm),
             profiler::collective(CollectiveOp::allreduce, comm, profiler::bytes_of(count, type)))

RANKMAP_TWIN(Scan, Iscan,
             (const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
             (sendbuf, recvbuf, count, type, op, comm),
             profiler::collective(CollectiveOp::scan, comm, profiler::bytes_of(count, type)))

RANKMAP_TWIN(Exscan, Iexscan,
             (const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
             (sendbuf, recvbuf, count, type, op, comm),
             profiler::collective(CollectiveOp::exscan, comm, profiler::bytes_of(count, type)))

RANKMAP_TWIN(Reduce_scatter, Ireduce_scatter,
             (const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type, MPI_Op op,
              MPI_Comm comm),
             (sendbuf, recvbuf, recvcounts, type, op, comm),
             profiler::collective(CollectiveOp::reduce_scatter, comm, bytes::reduce_scatter(comm, recvcounts, type)))

RANKMAP_TWIN(Reduce_scatter_block, Ireduce_scatter_block,
             (const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
             (sendbuf, recvbuf, recvcount, type, op, comm),
             profiler::collective(CollectiveOp::reduce_scatter_block, comm,
                                  bytes::times_peers(comm, profiler::bytes_of(recvcount, type))))

RANKMAP_TWIN(Gather, Igather,
             (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, int root, MPI_Comm comm),
             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
             profiler::collective(CollectiveOp::gather, comm,
                                  bytes::to_root(sendbuf == MPI_IN_PLACE, root, sendcount, sendtype, recvcount,
                                                 recvtype)))

RANKMAP_TWIN(Gatherv, Igatherv,
             (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
              const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm),
             (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm),
             profiler::collective(CollectiveOp::gatherv, comm,
                                  bytes::to_root(sendbuf == MPI_IN_PLACE, root, sendcount, sendtype,
                                                 bytes::own_count(comm, recvcounts, sendbuf == MPI_IN_PLACE),
                                                 recvtype)))

RANKMAP_TWIN(Scatter, Iscatter,
             (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, int root, MPI_Comm comm),
             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
             profiler::collective(CollectiveOp::scatter, comm,
                                  bytes::from_root(recvbuf == MPI_IN_PLACE, root, sendcount, sendtype, recvcount,
                                                   recvtype)))

RANKMAP_TWIN(Scatterv, Iscatterv,
             (const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),
             (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm),
             profiler::collective(CollectiveOp::scatterv, comm,
                                  bytes::from_root(recvbuf == MPI_IN_PLACE, root,
                                                   bytes::own_count(comm, sendcounts, recvbuf == MPI_IN_PLACE),
                                                   sendtype, recvcount, recvtype)))

RANKMAP_TWIN(Allgather, Iallgather,
             (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm),
             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
             profiler::collective(CollectiveOp::allgather, comm,
                                  sendbuf == MPI_IN_PLACE ? profiler::bytes_of(recvcount, recvtype)
                                                          : profiler::bytes_of(sendcount, sendtype)))

RANKMAP_TWIN(Allgatherv, Iallgatherv,
             (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
              const int displs[], MPI_Datatype recvtype, MPI_Comm comm),
             (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),
             profiler::collective(CollectiveOp::allgatherv, comm,
                                  sendbuf == MPI_IN_PLACE
                                      ? profiler::bytes_of(bytes::own_count(comm, recvcounts, true), recvtype)
                                      : profiler::bytes_of(sendcount, sendtype)))

RANKMAP_TWIN(Alltoall, Ialltoall,
             (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm),
             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
             profiler::collective(CollectiveOp::alltoall, comm,
                                  bytes::times_peers(comm, sendbuf == MPI_IN_PLACE
                                                               ? profiler::bytes_of(recvcount, recvtype)
                                                               : profiler::bytes_of(sendcount, sendtype))))

RANKMAP_TWIN(Alltoallv, Ialltoallv,
             (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
              const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm),
             (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm),
             profiler::collective(CollectiveOp::alltoallv, comm,
                                  sendbuf == MPI_IN_PLACE ? bytes::sum(comm, recvcounts, recvtype)
                                                          : bytes::sum(comm, sendcounts, sendtype)))

RANKMAP_TWIN(Alltoallw, Ialltoallw,
             (const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
              void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
              MPI_Comm comm),
             (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm),
             profiler::collective(CollectiveOp::alltoallw, comm,
                                  sendbuf == MPI_IN_PLACE ? bytes::sum_typed(comm, recvcounts, recvtypes)
                                                          : bytes::sum_typed(comm, sendcounts, sendtypes)))

// Neighbourhood collectives are point-to-point traffic along the topology: they go into the graph.

RANKMAP_TWIN(Neighbor_allgather, Ineighbor_allgather,
             (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm),
             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
             profiler::neighbours_uniform(comm, sendcount, sendtype))

RANKMAP_TWIN(Neighbor_allgatherv, Ineighbor_allgatherv,
             (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
              const int displs[], MPI_Datatype recvtype, MPI_Comm comm),
             (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),
             profiler::neighbours_uniform(comm, sendcount, sendtype))

RANKMAP_TWIN(Neighbor_alltoall, Ineighbor_alltoall,
             (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm),
             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
             profiler::neighbours_uniform(comm, sendcount, sendtype))

RANKMAP_TWIN(Neighbor_alltoallv, Ineighbor_alltoallv,
             (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
              const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm),
             (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm),
             profiler::neighbours_counts(comm, sendcounts, sendtype))

RANKMAP_TWIN(Neighbor_alltoallw, Ineighbor_alltoallw,
             (const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
              void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
              MPI_Comm comm),
             (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm),
             profiler::neighbours_typed(comm, sendcounts, sendtypes))
