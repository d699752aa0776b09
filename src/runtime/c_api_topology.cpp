// The C API of topology-aware communicators: result handles and the reordering entry points.
#include <rankmap.h>

#include "comm_tools.hpp"
#include "engine.hpp"
#include "exception_status.hpp"
#include "state.hpp"

#include <new>

struct rankmap_result_s {
  rankmap::runtime::ReorderOutcome outcome;
};

namespace {

/// Runs `body`, turning every C++ exception into a status code.
template <typename Body>
int guarded(Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    return rankmap::runtime::status_of_current_exception(RANKMAP_ERR_INPUT);
  }
}

int status_of_mpi(int code) {
  if (code == MPI_SUCCESS) return RANKMAP_SUCCESS;
  int error_class = code;
  PMPI_Error_class(code, &error_class);
  return error_class == MPI_ERR_ARG ? RANKMAP_ERR_ARG : RANKMAP_ERR_MPI;
}

bool mpi_ready() {
  int initialized = 0, finalized = 0;
  PMPI_Initialized(&initialized);
  PMPI_Finalized(&finalized);
  return initialized && !finalized;
}

rankmap::runtime::ReorderOutcome* outcome_of(rankmap_result result) { return result ? &result->outcome : nullptr; }

/// The C API is an explicit request to renumber: RANKMAP_REORDER does not apply.
constexpr auto kExplicit = rankmap::runtime::Origin::c_api;

}  // namespace

extern "C" {

RANKMAP_EXPORT int rankmap_result_create(rankmap_result* result) {
  return guarded([&] {
    if (!result) return RANKMAP_ERR_ARG;
    *result = new rankmap_result_s;
    return RANKMAP_SUCCESS;
  });
}

RANKMAP_EXPORT int rankmap_result_destroy(rankmap_result* result) {
  return guarded([&] {
    if (!result) return RANKMAP_ERR_ARG;
    delete *result;
    *result = nullptr;
    return RANKMAP_SUCCESS;
  });
}

RANKMAP_EXPORT int rankmap_result_get_applied(rankmap_result result, int* applied) {
  if (!result || !applied) return RANKMAP_ERR_ARG;
  *applied = result->outcome.applied ? 1 : 0;
  return RANKMAP_SUCCESS;
}

RANKMAP_EXPORT int rankmap_result_get_size(rankmap_result result, int* ntasks) {
  if (!result || !ntasks) return RANKMAP_ERR_ARG;
  *ntasks = static_cast<int>(result->outcome.slot_of.size());
  return RANKMAP_SUCCESS;
}

RANKMAP_EXPORT int rankmap_result_get_permutation(rankmap_result result, int capacity, int slot_of[]) {
  if (!result || (capacity > 0 && !slot_of)) return RANKMAP_ERR_ARG;
  const auto& perm = result->outcome.slot_of;
  if (capacity < static_cast<int>(perm.size())) return RANKMAP_ERR_CAPACITY;
  for (std::size_t t = 0; t < perm.size(); ++t) slot_of[t] = perm[t];
  return RANKMAP_SUCCESS;
}

RANKMAP_EXPORT int rankmap_result_get_algorithm(rankmap_result result, const char** name) {
  if (!result || !name) return RANKMAP_ERR_ARG;
  *name = result->outcome.algorithm.c_str();
  return RANKMAP_SUCCESS;
}

RANKMAP_EXPORT int rankmap_result_get_objective(rankmap_result result, const char** name, double* before,
                                                double* after) {
  if (!result) return RANKMAP_ERR_ARG;
  if (name) *name = result->outcome.objective.c_str();
  if (before) *before = result->outcome.before;
  if (after) *after = result->outcome.after;
  return RANKMAP_SUCCESS;
}

RANKMAP_EXPORT int rankmap_result_get_time(rankmap_result result, double* seconds) {
  if (!result || !seconds) return RANKMAP_ERR_ARG;
  *seconds = result->outcome.seconds;
  return RANKMAP_SUCCESS;
}

RANKMAP_EXPORT int rankmap_result_get_note(rankmap_result result, const char** note) {
  if (!result || !note) return RANKMAP_ERR_ARG;
  *note = result->outcome.note.c_str();
  return RANKMAP_SUCCESS;
}

RANKMAP_EXPORT int rankmap_dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                                      const int sourceweights[], int outdegree,
                                                      const int destinations[], const int destweights[],
                                                      MPI_Info info, int reorder, MPI_Comm* comm_dist_graph,
                                                      rankmap_result result) {
  return guarded([&] {
    if (!mpi_ready()) return RANKMAP_ERR_MPI;
    if (!comm_dist_graph) return RANKMAP_ERR_ARG;
    return status_of_mpi(rankmap::runtime::dist_graph_create_adjacent(
        kExplicit, comm_old, indegree, sources, sourceweights, outdegree, destinations, destweights, info, reorder,
        comm_dist_graph, outcome_of(result)));
  });
}

RANKMAP_EXPORT int rankmap_dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                             const int destinations[], const int weights[], MPI_Info info,
                                             int reorder, MPI_Comm* comm_dist_graph, rankmap_result result) {
  return guarded([&] {
    if (!mpi_ready()) return RANKMAP_ERR_MPI;
    if (!comm_dist_graph) return RANKMAP_ERR_ARG;
    return status_of_mpi(rankmap::runtime::dist_graph_create(kExplicit, comm_old, n, sources, degrees, destinations,
                                                             weights, info, reorder, comm_dist_graph,
                                                             outcome_of(result)));
  });
}

RANKMAP_EXPORT int rankmap_comm_reorder(MPI_Comm comm, int outdegree, const int destinations[],
                                        const int weights[], MPI_Comm* newcomm, rankmap_result result) {
  return guarded([&] {
    if (!mpi_ready()) return RANKMAP_ERR_MPI;
    if (!newcomm) return RANKMAP_ERR_ARG;
    return status_of_mpi(
        rankmap::runtime::comm_reorder(comm, outdegree, destinations, weights, newcomm, outcome_of(result)));
  });
}

RANKMAP_EXPORT int rankmap_comm_hilbert(MPI_Comm comm, MPI_Comm* newcomm) {
  return guarded([&] {
    if (!mpi_ready()) return RANKMAP_ERR_MPI;
    if (!newcomm) return RANKMAP_ERR_ARG;
    return status_of_mpi(rankmap::runtime::comm_hilbert(comm, newcomm));
  });
}

RANKMAP_EXPORT int rankmap_migrate(MPI_Comm oldcomm, MPI_Comm newcomm, const void* sendbuf, int sendcount,
                                   MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  return guarded([&] {
    if (!mpi_ready()) return RANKMAP_ERR_MPI;
    return status_of_mpi(
        rankmap::runtime::migrate(oldcomm, newcomm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
  });
}

RANKMAP_EXPORT int rankmap_coords(int capacity, int* ndims, int coords[], int extents[], int torus[]) {
  return guarded([&] {
    if (!mpi_ready()) return RANKMAP_ERR_MPI;
    if (!ndims) return RANKMAP_ERR_ARG;
    if (!rankmap::runtime::runtime_state().config.ok()) return RANKMAP_ERR_INPUT;
    const auto& here = rankmap::runtime::local_location();
    if (!here.where) return RANKMAP_ERR_INPUT;
    if (!here.where->grid) return RANKMAP_ERR_NO_COORDS;
    const auto& grid = *here.where->grid;
    *ndims = grid.ndims();
    if (capacity < grid.ndims()) return RANKMAP_ERR_CAPACITY;
    if (!coords || !extents || !torus) return RANKMAP_ERR_ARG;
    for (int d = 0; d < grid.ndims(); ++d) {
      coords[d] = here.where->coords[d];
      extents[d] = grid.extent(d);
      torus[d] = grid.is_torus(d) ? 1 : 0;
    }
    return RANKMAP_SUCCESS;
  });
}

}  // extern "C"
