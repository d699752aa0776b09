// The interposed C topology constructors: each hands its arguments to the runtime's reorder engine.
#include "interpose.hpp"

#include "engine.hpp"
#include "exception_status.hpp"

using rankmap::runtime::call_engine_or_plain;

using rankmap::pmpi::ReentryGuard;
constexpr auto kInterposed = rankmap::runtime::Origin::interposed;

RANKMAP_INTERPOSE int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                                     const int sourceweights[], int outdegree,
                                                     const int destinations[], const int destweights[],
                                                     MPI_Info info, int reorder, MPI_Comm* newcomm) {
  const ReentryGuard guard;
  auto plain = [&] {
    return PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations,
                                           destweights, info, reorder, newcomm);
  };
  if (!guard.outermost()) return plain();
  return call_engine_or_plain(
      [&] {
        return rankmap::runtime::dist_graph_create_adjacent(kInterposed, comm, indegree, sources, sourceweights,
                                                            outdegree, destinations, destweights, info, reorder,
                                                            newcomm);
      },
      plain);
}

RANKMAP_INTERPOSE int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                                            const int destinations[], const int weights[], MPI_Info info, int reorder,
                                            MPI_Comm* newcomm) {
  const ReentryGuard guard;
  auto plain = [&] {
    return PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder, newcomm);
  };
  if (!guard.outermost()) return plain();
  return call_engine_or_plain(
      [&] {
        return rankmap::runtime::dist_graph_create(kInterposed, comm, n, sources, degrees, destinations, weights, info,
                                                   reorder, newcomm);
      },
      plain);
}

RANKMAP_INTERPOSE int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                                      MPI_Comm* newcomm) {
  const ReentryGuard guard;
  auto plain = [&] { return PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm); };
  if (!guard.outermost()) return plain();
  return call_engine_or_plain(
      [&] { return rankmap::runtime::cart_create(kInterposed, comm, ndims, dims, periods, reorder, newcomm); }, plain);
}

RANKMAP_INTERPOSE int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                                       MPI_Comm* newcomm) {
  const ReentryGuard guard;
  auto plain = [&] { return PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm); };
  if (!guard.outermost()) return plain();
  return call_engine_or_plain(
      [&] { return rankmap::runtime::graph_create(kInterposed, comm, nnodes, index, edges, reorder, newcomm); }, plain);
}
