// The profiled sends, collectives and request calls in the Fortran manglings whose MPI binding bypasses C.
#include "fortran_next.hpp"
#include "interpose.hpp"

#include "collective_bytes.hpp"
#include "profiler.hpp"

#include <vector>

namespace profiler = rankmap::runtime::profiler;
namespace bytes = rankmap::runtime::collective_bytes;
using rankmap::runtime::CollectiveOp;
using F = MPI_Fint;

static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER arrays are read as C int arrays");

namespace {

MPI_Comm comm_of(const F* c) { return PMPI_Comm_f2c(*c); }

/// Calls the MPI library's binding and then, as the C wrappers do (profiled_call.hpp), records a
/// successful outermost call. The guard also keeps MPICH's binding, which calls the C functions,
/// from being counted again there.
template <typename Call, typename Record>
void profiled(F* ierr, Call&& call, Record&& record) {
  const rankmap::pmpi::ReentryGuard guard;
  MPI_Fint own = MPI_SUCCESS;
  F* code = ierr ? ierr : &own;
  call(code);
  if (*code == MPI_SUCCESS && guard.outermost() && profiler::enabled()) record();
}

// One interposed Fortran symbol: PARAMS are its arguments before the error argument, ARGS their
// names, RECORD what it counts. The MPI binding of the same name is found once, on first use.
#define RANKMAP_F_PROFILED(symbol, PARAMS, ARGS, RECORD)                                         \
  RANKMAP_INTERPOSE void symbol(RANKMAP_F_UNPAREN PARAMS, F* ierr) {                             \
    using Next = void (*)(RANKMAP_F_UNPAREN PARAMS, F*);                                        \
    static const auto next = rankmap::pmpi::next_fortran<Next>(#symbol);                        \
    profiled(                                                                                    \
        ierr,                                                                                    \
        [&](F* code) {                                                                           \
          rankmap::pmpi::call_next(next, code, [&](F* c) { next(RANKMAP_F_UNPAREN ARGS, c); }); \
        },                                                                                       \
        [&] { RECORD; });                                                                        \
  }
#define RANKMAP_F_UNPAREN(...) __VA_ARGS__

// --- Requests and barriers: interposed under both MPIs (MPICH's mpi_f08 calls PMPI_* for these).

std::vector<MPI_Request> requests_of(const F* handles, int n) {
  std::vector<MPI_Request> requests(static_cast<std::size_t>(n > 0 ? n : 0));
  for (std::size_t i = 0; i < requests.size(); ++i) requests[i] = PMPI_Request_f2c(handles[i]);
  return requests;
}

}  // namespace

// MPI_Start and MPI_Request_free: the C handle is taken before the call, which may reset the Fortran one.
#define RANKMAP_F_START(symbol)                                                                        \
  RANKMAP_INTERPOSE void symbol(F* request, F* ierr) {                                                 \
    using Next = void (*)(F*, F*);                                                                     \
    static const auto next = rankmap::pmpi::next_fortran<Next>(#symbol);                              \
    const MPI_Request handle = PMPI_Request_f2c(*request);                                             \
    profiled(                                                                                          \
        ierr, [&](F* code) { rankmap::pmpi::call_next(next, code, [&](F* c) { next(request, c); }); }, \
        [&] { profiler::started(1, &handle); });                                                       \
  }
#define RANKMAP_F_REQUEST_FREE(symbol)                                                                 \
  RANKMAP_INTERPOSE void symbol(F* request, F* ierr) {                                                 \
    using Next = void (*)(F*, F*);                                                                     \
    static const auto next = rankmap::pmpi::next_fortran<Next>(#symbol);                              \
    const MPI_Request handle = PMPI_Request_f2c(*request);                                             \
    profiled(                                                                                          \
        ierr, [&](F* code) { rankmap::pmpi::call_next(next, code, [&](F* c) { next(request, c); }); }, \
        [&] { profiler::freed(handle); });                                                             \
  }
#define RANKMAP_F_STARTALL(symbol)                                      \
  RANKMAP_F_PROFILED(symbol, (F * count, F * requests), (count, requests), \
                     const auto all = requests_of(requests, *count); profiler::started(*count, all.data()))
#define RANKMAP_F_BARRIER(symbol)                 \
  RANKMAP_F_PROFILED(symbol, (F * comm), (comm), \
                     profiler::collective(CollectiveOp::barrier, comm_of(comm), 0); profiler::completed())
#define RANKMAP_F_IBARRIER(symbol)                                     \
  RANKMAP_F_PROFILED(symbol, (F * comm, F * request), (comm, request), \
                     profiler::collective(CollectiveOp::barrier, comm_of(comm), 0))
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_START, MPI_START, mpi_start)
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_STARTALL, MPI_STARTALL, mpi_startall)
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_REQUEST_FREE, MPI_REQUEST_FREE, mpi_request_free)
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_BARRIER, MPI_BARRIER, mpi_barrier)
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_IBARRIER, MPI_IBARRIER, mpi_ibarrier)

// Waits and tests end a step under RANKMAP_PROFILE_PHASES=steps (completion_profiling.cpp). A
// LOGICAL flag is true when not 0.
using rankmap::pmpi::some_completed;
#define RANKMAP_F_COMPLETION(symbol, PARAMS, ARGS, DONE) \
  RANKMAP_F_PROFILED(symbol, PARAMS, ARGS, if (DONE) profiler::completed())
#define RANKMAP_F_WAIT(symbol) RANKMAP_F_COMPLETION(symbol, (F * request, F * status), (request, status), true)
#define RANKMAP_F_WAITALL(symbol) \
  RANKMAP_F_COMPLETION(symbol, (F * count, F * requests, F * statuses), (count, requests, statuses), *count > 0)
#define RANKMAP_F_WAITANY(symbol)                                                                 \
  RANKMAP_F_COMPLETION(symbol, (F * count, F * requests, F * index, F * status), (count, requests, index, status), \
                       *index != MPI_UNDEFINED)
#define RANKMAP_F_SOME(symbol)                                                                   \
  RANKMAP_F_COMPLETION(symbol, (F * incount, F * requests, F * outcount, F * indices, F * statuses), \
                       (incount, requests, outcount, indices, statuses), some_completed(outcount))
#define RANKMAP_F_TEST(symbol) \
  RANKMAP_F_COMPLETION(symbol, (F * request, F * flag, F * status), (request, flag, status), *flag != 0)
#define RANKMAP_F_TESTALL(symbol)                                                                         \
  RANKMAP_F_COMPLETION(symbol, (F * count, F * requests, F * flag, F * statuses), (count, requests, flag, statuses), \
                       *flag != 0 && *count > 0)
#define RANKMAP_F_TESTANY(symbol)                                                                   \
  RANKMAP_F_COMPLETION(symbol, (F * count, F * requests, F * index, F * flag, F * status),          \
                       (count, requests, index, flag, status), *flag != 0 && *index != MPI_UNDEFINED)
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_WAIT, MPI_WAIT, mpi_wait)
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_WAITALL, MPI_WAITALL, mpi_waitall)
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_WAITANY, MPI_WAITANY, mpi_waitany)
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_SOME, MPI_WAITSOME, mpi_waitsome)
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_TEST, MPI_TEST, mpi_test)
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_TESTALL, MPI_TESTALL, mpi_testall)
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_TESTANY, MPI_TESTANY, mpi_testany)
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_SOME, MPI_TESTSOME, mpi_testsome)

#ifdef OPEN_MPI
// --- Everything else, under Open MPI only: MPICH's bindings for these call the C functions.

namespace {

/// Open MPI's Fortran MPI_IN_PLACE is the address of one common block, for all three bindings.
bool in_place(const void* buffer) {
  static const void* const sentinel = dlsym(RTLD_DEFAULT, "mpi_fortran_in_place_");
  return buffer && buffer == sentinel;
}

MPI_Datatype type_of(const F* t) { return PMPI_Type_f2c(*t); }

std::vector<MPI_Datatype> types_of(const F* handles, int n) {
  std::vector<MPI_Datatype> types(static_cast<std::size_t>(n > 0 ? n : 0));
  for (std::size_t i = 0; i < types.size(); ++i) types[i] = PMPI_Type_f2c(handles[i]);
  return types;
}

std::uint64_t bytes_of(const F* count, const F* type) { return profiler::bytes_of(*count, type_of(type)); }

}  // namespace

#define RANKMAP_F_SEND(symbol)                                                                              \
  RANKMAP_F_PROFILED(symbol, (void* buf, F* count, F* type, F* dest, F* tag, F* comm),                     \
                     (buf, count, type, dest, tag, comm),                                                  \
                     profiler::send(comm_of(comm), *dest, *count, type_of(type)))
#define RANKMAP_F_ISEND(symbol)                                                                             \
  RANKMAP_F_PROFILED(symbol, (void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request),         \
                     (buf, count, type, dest, tag, comm, request),                                         \
                     profiler::send(comm_of(comm), *dest, *count, type_of(type)))
#define RANKMAP_F_SEND_INIT(symbol)                                                                         \
  RANKMAP_F_PROFILED(symbol, (void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request),         \
                     (buf, count, type, dest, tag, comm, request),                                         \
                     profiler::persistent_send(PMPI_Request_f2c(*request), comm_of(comm), *dest, *count,    \
                                               type_of(type)))
#define RANKMAP_F_SENDRECV(symbol)                                                                          \
  RANKMAP_F_PROFILED(symbol,                                                                                \
                     (void* sbuf, F* scount, F* stype, F* dest, F* stag, void* rbuf, F* rcount, F* rtype,  \
                      F* source, F* rtag, F* comm, F* status),                                             \
                     (sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status),   \
                     profiler::send(comm_of(comm), *dest, *scount, type_of(stype)); profiler::completed())
#define RANKMAP_F_SENDRECV_REPLACE(symbol)                                                                  \
  RANKMAP_F_PROFILED(symbol,                                                                                \
                     (void* buf, F* count, F* type, F* dest, F* stag, F* source, F* rtag, F* comm,         \
                      F* status),                                                                          \
                     (buf, count, type, dest, stag, source, rtag, comm, status),                           \
                     profiler::send(comm_of(comm), *dest, *count, type_of(type)); profiler::completed())
#define RANKMAP_F_TYPE_FREE(symbol) RANKMAP_F_PROFILED(symbol, (F * type), (type), profiler::type_freed())
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_TYPE_FREE, MPI_TYPE_FREE, mpi_type_free)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_SEND, MPI_SEND, mpi_send)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_SEND, MPI_BSEND, mpi_bsend)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_SEND, MPI_SSEND, mpi_ssend)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_SEND, MPI_RSEND, mpi_rsend)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_ISEND, MPI_ISEND, mpi_isend)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_ISEND, MPI_IBSEND, mpi_ibsend)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_ISEND, MPI_ISSEND, mpi_issend)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_ISEND, MPI_IRSEND, mpi_irsend)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_SEND_INIT, MPI_SEND_INIT, mpi_send_init)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_SEND_INIT, MPI_BSEND_INIT, mpi_bsend_init)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_SEND_INIT, MPI_SSEND_INIT, mpi_ssend_init)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_SEND_INIT, MPI_RSEND_INIT, mpi_rsend_init)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_SENDRECV, MPI_SENDRECV, mpi_sendrecv)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_SENDRECV_REPLACE, MPI_SENDRECV_REPLACE, mpi_sendrecv_replace)
#define RANKMAP_F_RECV(symbol)                                                                           \
  RANKMAP_F_COMPLETION(symbol, (void* buf, F* count, F* type, F* source, F* tag, F* comm, F* status), \
                       (buf, count, type, source, tag, comm, status), true)
RANKMAP_FORTRAN_MANGLINGS(RANKMAP_F_RECV, MPI_RECV, mpi_recv)

// Collectives. A blocking call and its non-blocking twin (one more argument, the request) share
// their record, and the blocking one ends a step; RANKMAP_F_TWIN defines both in every mangling.
#define RANKMAP_F_TWIN(UPPER, lower, IUPPER, ilower, PARAMS, ARGS, RECORD)                             \
  RANKMAP_F_TWIN_ONE(UPPER, lower, PARAMS, ARGS, RECORD; profiler::completed())                        \
  RANKMAP_F_TWIN_ONE(IUPPER, ilower, (RANKMAP_F_UNPAREN PARAMS, F* request), (RANKMAP_F_UNPAREN ARGS, request), \
                     RECORD)
#define RANKMAP_F_TWIN_ONE(UPPER, lower, PARAMS, ARGS, RECORD)                              \
  RANKMAP_F_PROFILED(UPPER, PARAMS, ARGS, RECORD)                                           \
  RANKMAP_F_PROFILED(lower, PARAMS, ARGS, RECORD)                                           \
  RANKMAP_F_PROFILED(lower##_, PARAMS, ARGS, RECORD)                                        \
  RANKMAP_F_PROFILED(lower##__, PARAMS, ARGS, RECORD)                                       \
  RANKMAP_F_PROFILED(lower##_f08_, PARAMS, ARGS, RECORD)

#define RANKMAP_F_REDUCTION(UPPER, lower, IUPPER, ilower, OP)                                          \
  RANKMAP_F_TWIN(UPPER, lower, IUPPER, ilower, (void* sbuf, void* rbuf, F* count, F* type, F* op, F* comm), \
                 (sbuf, rbuf, count, type, op, comm),                                                  \
                 profiler::collective(CollectiveOp::OP, comm_of(comm), bytes_of(count, type)))

RANKMAP_F_TWIN(MPI_BCAST, mpi_bcast, MPI_IBCAST, mpi_ibcast, (void* buf, F* count, F* type, F* root, F* comm),
               (buf, count, type, root, comm),
               profiler::collective(CollectiveOp::bcast, comm_of(comm), bytes_of(count, type)))
RANKMAP_F_TWIN(MPI_REDUCE, mpi_reduce, MPI_IREDUCE, mpi_ireduce,
               (void* sbuf, void* rbuf, F* count, F* type, F* op, F* root, F* comm),
               (sbuf, rbuf, count, type, op, root, comm),
               profiler::collective(CollectiveOp::reduce, comm_of(comm), bytes_of(count, type)))
RANKMAP_F_REDUCTION(MPI_ALLREDUCE, mpi_allreduce, MPI_IALLREDUCE, mpi_iallreduce, allreduce)
RANKMAP_F_REDUCTION(MPI_SCAN, mpi_scan, MPI_ISCAN, mpi_iscan, scan)
RANKMAP_F_REDUCTION(MPI_EXSCAN, mpi_exscan, MPI_IEXSCAN, mpi_iexscan, exscan)
RANKMAP_F_TWIN(MPI_REDUCE_SCATTER, mpi_reduce_scatter, MPI_IREDUCE_SCATTER, mpi_ireduce_scatter,
               (void* sbuf, void* rbuf, F* rcounts, F* type, F* op, F* comm), (sbuf, rbuf, rcounts, type, op, comm),
               profiler::collective(CollectiveOp::reduce_scatter, comm_of(comm),
                                    bytes::reduce_scatter(comm_of(comm), rcounts, type_of(type))))
RANKMAP_F_TWIN(MPI_REDUCE_SCATTER_BLOCK, mpi_reduce_scatter_block, MPI_IREDUCE_SCATTER_BLOCK,
               mpi_ireduce_scatter_block, (void* sbuf, void* rbuf, F* rcount, F* type, F* op, F* comm),
               (sbuf, rbuf, rcount, type, op, comm),
               profiler::collective(CollectiveOp::reduce_scatter_block, comm_of(comm),
                                    bytes::times_peers(comm_of(comm), bytes_of(rcount, type))))

// Types of ignored arguments may be garbage handles; they are converted here but only sized
// where the byte rules (collective_bytes.hpp) read them.
RANKMAP_F_TWIN(MPI_GATHER, mpi_gather, MPI_IGATHER, mpi_igather,
               (void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* root, F* comm),
               (sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
               profiler::collective(CollectiveOp::gather, comm_of(comm),
                                    bytes::to_root(in_place(sbuf), *root, *scount, type_of(stype), *rcount,
                                                   type_of(rtype))))
RANKMAP_F_TWIN(MPI_GATHERV, mpi_gatherv, MPI_IGATHERV, mpi_igatherv,
               (void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts, F* displs, F* rtype, F* root, F* comm),
               (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm),
               profiler::collective(CollectiveOp::gatherv, comm_of(comm),
                                    bytes::to_root(in_place(sbuf), *root, *scount, type_of(stype),
                                                   bytes::own_count(comm_of(comm), rcounts, in_place(sbuf)),
                                                   type_of(rtype))))
RANKMAP_F_TWIN(MPI_SCATTER, mpi_scatter, MPI_ISCATTER, mpi_iscatter,
               (void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* root, F* comm),
               (sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
               profiler::collective(CollectiveOp::scatter, comm_of(comm),
                                    bytes::from_root(in_place(rbuf), *root, *scount, type_of(stype), *rcount,
                                                     type_of(rtype))))
RANKMAP_F_TWIN(MPI_SCATTERV, mpi_scatterv, MPI_ISCATTERV, mpi_iscatterv,
               (void* sbuf, F* scounts, F* displs, F* stype, void* rbuf, F* rcount, F* rtype, F* root, F* comm),
               (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm),
               profiler::collective(CollectiveOp::scatterv, comm_of(comm),
                                    bytes::from_root(in_place(rbuf), *root,
                                                     bytes::own_count(comm_of(comm), scounts, in_place(rbuf)),
                                                     type_of(stype), *rcount, type_of(rtype))))
RANKMAP_F_TWIN(MPI_ALLGATHER, mpi_allgather, MPI_IALLGATHER, mpi_iallgather,
               (void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* comm),
               (sbuf, scount, stype, rbuf, rcount, rtype, comm),
               profiler::collective(CollectiveOp::allgather, comm_of(comm),
                                    in_place(sbuf) ? bytes_of(rcount, rtype) : bytes_of(scount, stype)))
RANKMAP_F_TWIN(MPI_ALLGATHERV, mpi_allgatherv, MPI_IALLGATHERV, mpi_iallgatherv,
               (void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts, F* displs, F* rtype, F* comm),
               (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm),
               profiler::collective(CollectiveOp::allgatherv, comm_of(comm),
                                    in_place(sbuf)
                                        ? profiler::bytes_of(bytes::own_count(comm_of(comm), rcounts, true),
                                                             type_of(rtype))
                                        : bytes_of(scount, stype)))
RANKMAP_F_TWIN(MPI_ALLTOALL, mpi_alltoall, MPI_IALLTOALL, mpi_ialltoall,
               (void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* comm),
               (sbuf, scount, stype, rbuf, rcount, rtype, comm),
               profiler::collective(CollectiveOp::alltoall, comm_of(comm),
                                    bytes::times_peers(comm_of(comm), in_place(sbuf) ? bytes_of(rcount, rtype)
                                                                                     : bytes_of(scount, stype))))
RANKMAP_F_TWIN(MPI_ALLTOALLV, mpi_alltoallv, MPI_IALLTOALLV, mpi_ialltoallv,
               (void* sbuf, F* scounts, F* sdispls, F* stype, void* rbuf, F* rcounts, F* rdispls, F* rtype,
                F* comm),
               (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
               profiler::collective(CollectiveOp::alltoallv, comm_of(comm),
                                    in_place(sbuf) ? bytes::sum(comm_of(comm), rcounts, type_of(rtype))
                                                   : bytes::sum(comm_of(comm), scounts, type_of(stype))))
RANKMAP_F_TWIN(MPI_ALLTOALLW, mpi_alltoallw, MPI_IALLTOALLW, mpi_ialltoallw,
               (void* sbuf, F* scounts, F* sdispls, F* stypes, void* rbuf, F* rcounts, F* rdispls, F* rtypes,
                F* comm),
               (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm),
               const bool place = in_place(sbuf);
               const auto types = types_of(place ? rtypes : stypes, bytes::peers(comm_of(comm)));
               profiler::collective(CollectiveOp::alltoallw, comm_of(comm),
                                    bytes::sum_typed(comm_of(comm), place ? rcounts : scounts, types.data())))

RANKMAP_F_TWIN(MPI_NEIGHBOR_ALLGATHER, mpi_neighbor_allgather, MPI_INEIGHBOR_ALLGATHER, mpi_ineighbor_allgather,
               (void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* comm),
               (sbuf, scount, stype, rbuf, rcount, rtype, comm),
               profiler::neighbours_uniform(comm_of(comm), *scount, type_of(stype)))
RANKMAP_F_TWIN(MPI_NEIGHBOR_ALLGATHERV, mpi_neighbor_allgatherv, MPI_INEIGHBOR_ALLGATHERV,
               mpi_ineighbor_allgatherv,
               (void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts, F* displs, F* rtype, F* comm),
               (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm),
               profiler::neighbours_uniform(comm_of(comm), *scount, type_of(stype)))
RANKMAP_F_TWIN(MPI_NEIGHBOR_ALLTOALL, mpi_neighbor_alltoall, MPI_INEIGHBOR_ALLTOALL, mpi_ineighbor_alltoall,
               (void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* comm),
               (sbuf, scount, stype, rbuf, rcount, rtype, comm),
               profiler::neighbours_uniform(comm_of(comm), *scount, type_of(stype)))
RANKMAP_F_TWIN(MPI_NEIGHBOR_ALLTOALLV, mpi_neighbor_alltoallv, MPI_INEIGHBOR_ALLTOALLV, mpi_ineighbor_alltoallv,
               (void* sbuf, F* scounts, F* sdispls, F* stype, void* rbuf, F* rcounts, F* rdispls, F* rtype,
                F* comm),
               (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
               profiler::neighbours_counts(comm_of(comm), scounts, type_of(stype)))
RANKMAP_F_TWIN(MPI_NEIGHBOR_ALLTOALLW, mpi_neighbor_alltoallw, MPI_INEIGHBOR_ALLTOALLW, mpi_ineighbor_alltoallw,
               (void* sbuf, F* scounts, MPI_Aint* sdispls, F* stypes, void* rbuf, F* rcounts, MPI_Aint* rdispls,
                F* rtypes, F* comm),
               (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm),
               const auto types = types_of(stypes, profiler::out_degree(comm_of(comm)));
               profiler::neighbours_typed(comm_of(comm), scounts, types.data()))
#endif
