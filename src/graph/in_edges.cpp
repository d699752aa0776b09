// The transpose of a CSR graph by a counting sort over the destinations.
#include "in_edges.hpp"

namespace rankmap::graph {

InEdges::InEdges(const CommGraph& graph) {
  const auto tasks = static_cast<std::size_t>(graph.num_tasks());
  offsets.assign(tasks + 1, 0);
  for (TaskId t = 0; t < graph.num_tasks(); ++t)
    for (TaskId x : graph.out_neighbors(t)) ++offsets[x + 1];
  for (std::size_t t = 0; t < tasks; ++t) offsets[t + 1] += offsets[t];
  sources.resize(static_cast<std::size_t>(graph.num_edges()));
  weights.resize(sources.size());
  std::vector<std::int64_t> fill(offsets.begin(), offsets.end() - 1);
  for (TaskId t = 0; t < graph.num_tasks(); ++t) {
    const auto targets = graph.out_neighbors(t);
    const auto out_weights = graph.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const std::int64_t at = fill[targets[k]]++;
      sources[at] = t;
      weights[at] = out_weights[k];
    }
  }
}

}  // namespace rankmap::graph
