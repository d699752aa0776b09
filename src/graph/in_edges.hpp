// The in-edges of a communication graph in CSR form: its transpose, without re-sorting.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <cstdint>
#include <vector>

namespace rankmap::graph {

/// Task t's in-edges are sources[k], weights[k] for k in offsets[t] .. offsets[t + 1], in
/// increasing source order.
struct InEdges {
  /// By a counting sort: CommGraph::transposed() sorts every edge, which costs more.
  explicit InEdges(const CommGraph& graph);
  std::vector<std::int64_t> offsets;
  std::vector<TaskId> sources;
  std::vector<double> weights;
};

}  // namespace rankmap::graph
