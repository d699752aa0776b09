// The interposed C point-to-point sends (blocking, non-blocking, persistent, Sendrecv) and the request and type
// frees they depend on, for RANKMAP_PROFILE.
#include "profiled_call.hpp"

namespace profiler = rankmap::runtime::profiler;

#define RANKMAP_PROFILED_SEND(NAME)                                                                           \
  RANKMAP_INTERPOSE int MPI_##NAME(const void* buf, int count, MPI_Datatype type, int dest, int tag,           \
                                   MPI_Comm comm) {                                                            \
    RANKMAP_PROFILED_BODY(PMPI_##NAME(buf, count, type, dest, tag, comm), profiler::send(comm, dest, count, type)); \
  }
RANKMAP_PROFILED_SEND(Send)
RANKMAP_PROFILED_SEND(Bsend)
RANKMAP_PROFILED_SEND(Ssend)
RANKMAP_PROFILED_SEND(Rsend)

#define RANKMAP_PROFILED_ISEND(NAME)                                                                \
  RANKMAP_INTERPOSE int MPI_##NAME(const void* buf, int count, MPI_Datatype type, int dest, int tag, \
                                   MPI_Comm comm, MPI_Request* request) {                            \
    RANKMAP_PROFILED_BODY(PMPI_##NAME(buf, count, type, dest, tag, comm, request),                   \
                          profiler::send(comm, dest, count, type));                                  \
  }
RANKMAP_PROFILED_ISEND(Isend)
RANKMAP_PROFILED_ISEND(Ibsend)
RANKMAP_PROFILED_ISEND(Issend)
RANKMAP_PROFILED_ISEND(Irsend)

#define RANKMAP_PROFILED_SEND_INIT(NAME)                                                            \
  RANKMAP_INTERPOSE int MPI_##NAME(const void* buf, int count, MPI_Datatype type, int dest, int tag, \
                                   MPI_Comm comm, MPI_Request* request) {                            \
    RANKMAP_PROFILED_BODY(PMPI_##NAME(buf, count, type, dest, tag, comm, request),                   \
                          profiler::persistent_send(*request, comm, dest, count, type));             \
  }
RANKMAP_PROFILED_SEND_INIT(Send_init)
RANKMAP_PROFILED_SEND_INIT(Bsend_init)
RANKMAP_PROFILED_SEND_INIT(Ssend_init)
RANKMAP_PROFILED_SEND_INIT(Rsend_init)

RANKMAP_INTERPOSE int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                                   void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                                   MPI_Comm comm, MPI_Status* status) {
  RANKMAP_PROFILED_BODY(PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                                      source, recvtag, comm, status),
                        profiler::send(comm, dest, sendcount, sendtype));
}

RANKMAP_INTERPOSE int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag,
                                           int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  RANKMAP_PROFILED_BODY(PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status),
                        profiler::send(comm, dest, count, type));
}

// A persistent request keeps its handle across starts; the handle is read before the call so
// that MPI_Request_free, which sets it to MPI_REQUEST_NULL, forgets the right one.

RANKMAP_INTERPOSE int MPI_Start(MPI_Request* request) {
  const MPI_Request handle = *request;
  RANKMAP_PROFILED_BODY(PMPI_Start(request), profiler::started(1, &handle));
}

RANKMAP_INTERPOSE int MPI_Startall(int count, MPI_Request requests[]) {
  RANKMAP_PROFILED_BODY(PMPI_Startall(count, requests), profiler::started(count, requests));
}

RANKMAP_INTERPOSE int MPI_Type_free(MPI_Datatype* type) {
  RANKMAP_PROFILED_BODY(PMPI_Type_free(type), profiler::type_freed());
}

RANKMAP_INTERPOSE int MPI_Request_free(MPI_Request* request) {
  const MPI_Request handle = *request;
  RANKMAP_PROFILED_BODY(PMPI_Request_free(request), profiler::freed(handle));
}
