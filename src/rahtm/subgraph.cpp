// Induced subgraphs, cuts and contraction by parts.
#include "subgraph.hpp"

#include <algorithm>
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

// The bytes of each pair of parts are summed here, part by part in a dense row, so that
// from_edges() sorts one edge per pair (in order already) rather than every edge of the graph:
// tiling contracts dozens of candidate grids, and this was most of its time.
graph::CommGraph contract(const graph::CommGraph& graph, std::span<const int> part_of, int parts) {
  std::vector<TaskId> first(static_cast<std::size_t>(parts) + 1, 0), members(part_of.size());
  for (int p : part_of) ++first[p + 1];
  for (int p = 0; p < parts; ++p) first[p + 1] += first[p];
  std::vector<TaskId> fill(first.begin(), first.end() - 1);
  for (TaskId t = 0; t < graph.num_tasks(); ++t) members[fill[part_of[t]]++] = t;
  std::vector<double> row(static_cast<std::size_t>(parts), 0.0);
  std::vector<char> seen(static_cast<std::size_t>(parts), 0);
  std::vector<int> touched;
  std::vector<graph::Edge> edges;
  edges.reserve(static_cast<std::size_t>(graph.num_edges()));
  for (int a = 0; a < parts; ++a) {
    for (TaskId i = first[a]; i < first[a + 1]; ++i) {
      const auto targets = graph.out_neighbors(members[i]);
      const auto weights = graph.out_weights(members[i]);
      for (std::size_t k = 0; k < targets.size(); ++k) {
        const int b = part_of[targets[k]];
        if (b == a) continue;
        if (!seen[b]) seen[b] = 1, touched.push_back(b);
        row[b] += weights[k];
      }
    }
    std::sort(touched.begin(), touched.end());
    for (int b : touched) edges.push_back({a, b, row[b]}), row[b] = 0, seen[b] = 0;
    touched.clear();
  }
  return graph::CommGraph::from_edges(parts, std::move(edges));
}

}  // namespace rankmap::rahtm
