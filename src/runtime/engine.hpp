// The reorder engine shared by the C API and the preload layer: one entry point per topology call.
#pragma once

#include <rankmap/types.hpp>

#include <mpi.h>

#include <string>
#include <vector>

namespace rankmap::runtime {

/// What one reorder did, the same on every process (the C API's rankmap_result).
struct ReorderOutcome {
  bool applied = false;
  std::vector<SlotId> slot_of;  ///< new rank t runs at old rank slot_of[t]; empty when not applied
  std::string algorithm;
  std::string objective;
  std::string note;
  double before = 0;
  double after = 0;
  double seconds = 0;
};

/// Who made the call. An interposed call is renumbered only when RANKMAP_REORDER names it, and
/// otherwise at most advised on; an explicit call of the C API asked for renumbering.
enum class Origin { interposed, c_api };

// Each behaves like the MPI call of the same name, with DESIGN.md §4's reorder semantics: when
// reorder is true (and, for an interposed call, RANKMAP_REORDER names the call), the process at
// old rank slot_of[t] becomes rank t and plays vertex t. They return an MPI error code, raise
// MPI_ERR_ARG through comm's error handler for erroneous arguments, never throw, and fall back to
// the plain MPI call on every process when anything else goes wrong anywhere. `outcome` may be null.
int dist_graph_create_adjacent(Origin origin, MPI_Comm comm, int indegree, const int sources[],
                               const int sourceweights[], int outdegree, const int destinations[],
                               const int destweights[], MPI_Info info, int reorder, MPI_Comm* newcomm,
                               ReorderOutcome* outcome = nullptr);
int dist_graph_create(Origin origin, MPI_Comm comm, int n, const int sources[], const int degrees[],
                      const int destinations[], const int weights[], MPI_Info info, int reorder, MPI_Comm* newcomm,
                      ReorderOutcome* outcome = nullptr);
int cart_create(Origin origin, MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                MPI_Comm* newcomm, ReorderOutcome* outcome = nullptr);
int graph_create(Origin origin, MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                 MPI_Comm* newcomm, ReorderOutcome* outcome = nullptr);

/// A plain communicator renumbered for the graph given by each process's out-edges (weights may be
/// NULL): new rank t plays vertex t, which is old rank t's vertex. Unlike the MPI calls there is no
/// reorder flag; not reordering (do no harm, or a failure) returns a duplicate of comm.
int comm_reorder(MPI_Comm comm, int outdegree, const int destinations[], const int weights[], MPI_Comm* newcomm,
                 ReorderOutcome* outcome);

}  // namespace rankmap::runtime
