// METIS partitioning with exact part sizes, used where the task graph has no grid structure.
#include "metis_partition.hpp"

#include <metis.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace rankmap::rahtm {

namespace {

/// The undirected CSR METIS needs, weights scaled to integers whose sum fits idx_t.
struct MetisGraph {
  std::vector<idx_t> xadj{0}, adjncy, adjwgt;
};

MetisGraph to_metis(const graph::CommGraph& graph) {
  const graph::CommGraph sym = graph.symmetrized();
  double max_w = 0, total = 0;
  for (TaskId t = 0; t < sym.num_tasks(); ++t)
    for (double w : sym.out_weights(t)) max_w = std::max(max_w, w), total += w;
  const double scale = max_w > 0 ? std::min(1e6 / max_w, 1e9 / total) : 1;
  MetisGraph m;
  for (TaskId t = 0; t < sym.num_tasks(); ++t) {
    const auto targets = sym.out_neighbors(t);
    const auto weights = sym.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k) {
      m.adjncy.push_back(targets[k]);
      m.adjwgt.push_back(std::max<idx_t>(1, static_cast<idx_t>(std::llround(weights[k] * scale))));
    }
    m.xadj.push_back(static_cast<idx_t>(m.adjncy.size()));
  }
  return m;
}

std::vector<int> run_metis(const graph::CommGraph& graph, std::span<const std::int64_t> sizes, std::uint64_t seed) {
  MetisGraph m = to_metis(graph);
  idx_t n = graph.num_tasks(), ncon = 1, nparts = static_cast<idx_t>(sizes.size()), objval = 0;
  std::vector<real_t> tpwgts(sizes.size());
  for (std::size_t p = 0; p < sizes.size(); ++p) tpwgts[p] = static_cast<real_t>(static_cast<double>(sizes[p]) / n);
  real_t ubvec = 1.001f;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = static_cast<idx_t>(seed % 1000003);
  options[METIS_OPTION_NUMBERING] = 0;
  std::vector<idx_t> part(static_cast<std::size_t>(n), 0);
  auto* partition = nparts <= 8 ? METIS_PartGraphRecursive : METIS_PartGraphKway;
  const int status = partition(&n, &ncon, m.xadj.data(), m.adjncy.data(), nullptr, nullptr,
                               m.adjwgt.empty() ? nullptr : m.adjwgt.data(), &nparts, tpwgts.data(), &ubvec, options,
                               &objval, part.data());
  if (status != METIS_OK) throw std::runtime_error("METIS failed with status " + std::to_string(status));
  return {part.begin(), part.end()};
}

/// Moves vertices out of overfull parts until every part has its exact size.
void repair_sizes(const graph::CommGraph& sym, std::span<const std::int64_t> sizes, std::vector<int>& part) {
  const int parts = static_cast<int>(sizes.size());
  std::vector<std::int64_t> count(parts, 0);
  for (int p : part) ++count[p];
  for (;;) {
    std::vector<std::tuple<double, TaskId, int>> moves;  // (-gain, vertex, target)
    for (TaskId t = 0; t < sym.num_tasks(); ++t) {
      if (count[part[t]] <= sizes[part[t]]) continue;
      std::unordered_map<int, double> link;
      const auto targets = sym.out_neighbors(t);
      const auto weights = sym.out_weights(t);
      for (std::size_t k = 0; k < targets.size(); ++k) link[part[targets[k]]] += weights[k];
      int best = -1;
      for (int q = 0; q < parts; ++q)
        if (count[q] < sizes[q] && (best < 0 || link[q] > link[best])) best = q;
      if (best >= 0) moves.emplace_back(link[part[t]] - link[best], t, best);
    }
    if (moves.empty()) return;
    std::sort(moves.begin(), moves.end());
    for (const auto& [loss, t, q] : moves)
      if (count[part[t]] > sizes[part[t]] && count[q] < sizes[q]) --count[part[t]], ++count[q], part[t] = q;
  }
}

}  // namespace

std::vector<int> partition_exact(const graph::CommGraph& graph, std::span<const std::int64_t> sizes,
                                 std::uint64_t seed) {
  const std::int64_t total = std::accumulate(sizes.begin(), sizes.end(), std::int64_t{0});
  if (total != graph.num_tasks())
    throw std::invalid_argument("partition: part sizes add up to " + std::to_string(total) + ", not " +
                                std::to_string(graph.num_tasks()));
  if (sizes.size() == 1) return std::vector<int>(static_cast<std::size_t>(graph.num_tasks()), 0);
  std::vector<int> part = run_metis(graph, sizes, seed);
  repair_sizes(graph.symmetrized(), sizes, part);
  return part;
}

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

}  // namespace rankmap::rahtm
