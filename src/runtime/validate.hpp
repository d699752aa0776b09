// Local checks of the arguments of the topology calls, before any communication (DESIGN.md §10).
#pragma once

#include <mpi.h>

#include <string>

namespace rankmap::runtime {

/// How one weights argument was given.
enum class WeightsKind { array, unweighted, empty };

/// MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY (or any pointer with degree 0), or a real array.
WeightsKind classify_weights(const int* weights, int degree);

/// What one process's arguments say, for the agreement between processes.
struct LocalCheck {
  std::string error;          ///< empty when the arguments are valid on this process
  bool unweighted = false;    ///< some weights argument is MPI_UNWEIGHTED
  bool weighted = false;      ///< some weights argument is a real array
};

/// Each returns the first problem, or an empty error. `size` is the communicator size.
LocalCheck check_dist_graph_adjacent(int size, int indegree, const int sources[], const int sourceweights[],
                                     int outdegree, const int destinations[], const int destweights[]);
LocalCheck check_dist_graph(int size, int n, const int sources[], const int degrees[], const int destinations[],
                            const int weights[]);
LocalCheck check_cart(int size, int ndims, const int dims[]);
LocalCheck check_graph(int size, int nnodes, const int index[], const int edges[]);
/// An out-list as given to rankmap_comm_reorder (weights may be NULL for unweighted).
LocalCheck check_out_edges(int size, int outdegree, const int destinations[], const int weights[]);

}  // namespace rankmap::runtime
