// Induced subgraphs, cuts and contraction by parts.
#include "subgraph.hpp"

#include <unordered_map>

namespace rankmap::rahtm {

graph::CommGraph induced_subgraph(const graph::CommGraph& graph, std::span<const TaskId> tasks) {
  std::unordered_map<TaskId, TaskId> local;
  local.reserve(tasks.size());
  for (std::size_t i = 0; i < tasks.size(); ++i) local.emplace(tasks[i], static_cast<TaskId>(i));
  std::vector<graph::Edge> edges;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const auto targets = graph.out_neighbors(tasks[i]);
    const auto weights = graph.out_weights(tasks[i]);
    for (std::size_t k = 0; k < targets.size(); ++k)
      if (auto it = local.find(targets[k]); it != local.end())
        edges.push_back({static_cast<TaskId>(i), it->second, weights[k]});
  }
  return graph::CommGraph::from_edges(static_cast<TaskId>(tasks.size()), std::move(edges));
}

double cut_weight(const graph::CommGraph& graph, std::span<const int> part_of) {
  double cut = 0;
  for (TaskId t = 0; t < graph.num_tasks(); ++t) {
    const auto targets = graph.out_neighbors(t);
    const auto weights = graph.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k)
      if (part_of[t] != part_of[targets[k]]) cut += weights[k];
  }
  return cut;
}

graph::CommGraph contract(const graph::CommGraph& graph, std::span<const int> part_of, int parts) {
  std::vector<graph::Edge> edges;
  for (TaskId t = 0; t < graph.num_tasks(); ++t) {
    const auto targets = graph.out_neighbors(t);
    const auto weights = graph.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k)
      if (part_of[t] != part_of[targets[k]]) edges.push_back({part_of[t], part_of[targets[k]], weights[k]});
  }
  return graph::CommGraph::from_edges(parts, std::move(edges));
}

}  // namespace rankmap::rahtm
