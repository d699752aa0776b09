// The interposed C point-to-point sends (blocking, non-blocking, persistent, Sendrecv) and the request and type
// frees they depend on, for RANKMAP_PROFILE.
#include "profiled_call.hpp"

namespace profiler = rankmap::runtime::profiler;

#define RANKMAP_PROFILED_SEND(NAME)                                                                   \
  RANKMAP_PROFILED_SEND_CALL(NAME,                                                                     \
                             (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm), \
                             (buf, count, type, dest, tag, comm), comm, dest, count, type, tag, true)
RANKMAP_PROFILED_SEND(Send)
RANKMAP_PROFILED_SEND(Bsend)
RANKMAP_PROFILED_SEND(Ssend)
RANKMAP_PROFILED_SEND(Rsend)

#define RANKMAP_PROFILED_ISEND(NAME)                                                                  \
  RANKMAP_PROFILED_SEND_CALL(NAME,                                                                     \
                             (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, \
                              MPI_Request* request),                                                   \
                             (buf, count, type, dest, tag, comm, request), comm, dest, count, type, tag, \
                             request != nullptr)
RANKMAP_PROFILED_ISEND(Isend)
RANKMAP_PROFILED_ISEND(Ibsend)
RANKMAP_PROFILED_ISEND(Issend)
RANKMAP_PROFILED_ISEND(Irsend)

#define RANKMAP_PROFILED_SEND_INIT(NAME)                                                              \
  RANKMAP_PROFILED(NAME,                                                                               \
                   (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,   \
                    MPI_Request* request),                                                             \
                   (buf, count, type, dest, tag, comm, request),                                       \
                   profiler::persistent_send(*request, comm, dest, count, type))
RANKMAP_PROFILED_SEND_INIT(Send_init)
RANKMAP_PROFILED_SEND_INIT(Bsend_init)
RANKMAP_PROFILED_SEND_INIT(Ssend_init)
RANKMAP_PROFILED_SEND_INIT(Rsend_init)

// Sendrecv's receive arguments are MPI's to check: recorded after the call. Its receive ends a step.
RANKMAP_PROFILED(Sendrecv,
                 (const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status),
                 (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm,
                  status),
                 profiler::send(comm, dest, sendcount, sendtype); profiler::completed())

RANKMAP_PROFILED(Sendrecv_replace,
                 (void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                  MPI_Comm comm, MPI_Status* status),
                 (buf, count, type, dest, sendtag, source, recvtag, comm, status),
                 profiler::send(comm, dest, count, type); profiler::completed())

// MPI_Start leaves the handle of a persistent request as it is; MPI_Request_free sets it to
// MPI_REQUEST_NULL, so the handle to forget is read before the call.

RANKMAP_PROFILED(Start, (MPI_Request * request), (request), profiler::started(1, request))

RANKMAP_PROFILED(Startall, (int count, MPI_Request requests[]), (count, requests),
                 profiler::started(count, requests))

RANKMAP_PROFILED(Type_free, (MPI_Datatype * type), (type), profiler::type_freed())

RANKMAP_INTERPOSE int MPI_Request_free(MPI_Request* request) {
  const MPI_Request handle = *request;
  RANKMAP_PROFILED_BODY(PMPI_Request_free(request), profiler::freed(handle));
}
