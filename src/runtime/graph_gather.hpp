// Step 4 of the reorder protocol: every process's edges to rank 0, and what rank 0 reads from them.
#pragma once

#include "step_guard.hpp"

#include <rankmap/graph/comm_graph.hpp>

#include <mpi.h>

#include <string>
#include <vector>

namespace rankmap::runtime {

/// The buffers of the gather. Rank 0's counts are allocated before the agreement, since the first
/// collective after it receives into them.
struct GraphGather {
  std::vector<int> mine;    ///< this process's edges, three ints each (LocalEdges)
  std::vector<int> counts;  ///< rank 0: each process's number of ints
  std::vector<int> displs;  ///< rank 0
  std::vector<int> all;     ///< rank 0: every process's edges in rank order
};

/// The buffers whose size is known before the agreement (rank 0's counts). May throw.
GraphGather prepare_graph_gather(int rank, int size);

/// One MPI_Gather of each process's count to rank 0 (0 from a process that failed), then on rank 0
/// the check that the total fits an int count (graph_size) and the allocation (graph_buffer).
void gather_counts(MPI_Comm comm, int rank, GraphGather& g, StepGuard& guard) noexcept;

/// One MPI_Gatherv of the edges to rank 0: only after a settle found every process ready.
void gather_edges(MPI_Comm comm, GraphGather& g, StepGuard& guard) noexcept;

/// MPI_Dist_graph_create_adjacent requires every edge to be declared by both of its ends: the
/// multiset of out-edges must equal the multiset of declared in-edges. Empty when they do, else
/// the first edge that breaks this, in words.
std::string inconsistent_edge(const std::vector<int>& triples);

/// The graph of n tasks from gathered triples (declared in-edges left out).
graph::CommGraph graph_of(TaskId n, const std::vector<int>& triples);

}  // namespace rankmap::runtime
