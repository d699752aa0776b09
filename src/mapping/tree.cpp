// The tree mapper: recursive multisection of the graph along the switch levels of a fat-tree or
// dragonfly, then the swap search on the channel loads.
#include <rankmap/mapping/concentration.hpp>
#include <rankmap/mapping/mapping.hpp>

#include "core_algorithm_functions.hpp"

#include <algorithm>
#include <numeric>

namespace rankmap::mapping {

namespace {

/// The allocation's nodes as a tree of the network's groups: the nodes of a group of level l are
/// split among its groups of level l-1, down to single nodes at level 0.
class Multisection {
 public:
  Multisection(const graph::CommGraph& graph, const topology::Allocation& alloc, std::uint64_t seed,
               const Deadline& deadline)
      : graph_(graph), alloc_(alloc), seed_(seed), deadline_(deadline), local_(static_cast<std::size_t>(graph.num_tasks()), -1),
        slot_of_(static_cast<std::size_t>(graph.num_tasks())) {}

  Mapping run() {
    std::vector<int> nodes(static_cast<std::size_t>(alloc_.num_nodes()));
    std::iota(nodes.begin(), nodes.end(), 0);
    std::sort(nodes.begin(), nodes.end(), [&](int a, int b) { return alloc_.node(a) < alloc_.node(b); });
    std::vector<TaskId> tasks(static_cast<std::size_t>(graph_.num_tasks()));
    std::iota(tasks.begin(), tasks.end(), 0);
    split(tasks, nodes, alloc_.network().num_levels());
    return std::move(slot_of_);
  }

 private:
  /// Places `tasks` (as many as the slots of `nodes`) on `nodes`, a group of `level` in node-id order.
  void split(const std::vector<TaskId>& tasks, std::span<const int> nodes, int level) {
    if (level == 0) {
      const auto slots = alloc_.slots_of_node(nodes.front());
      for (std::size_t k = 0; k < tasks.size(); ++k) slot_of_[tasks[k]] = slots[k];
      return;
    }
    const NodeId size = alloc_.network().level_size(level - 1);
    std::vector<std::span<const int>> children;
    std::vector<int> sizes;
    for (std::size_t begin = 0; begin < nodes.size();) {
      std::size_t end = begin;
      int slots = 0;
      for (; end < nodes.size() && alloc_.node(nodes[end]) / size == alloc_.node(nodes[begin]) / size; ++end)
        slots += static_cast<int>(alloc_.slots_of_node(nodes[end]).size());
      children.push_back(nodes.subspan(begin, end - begin));
      sizes.push_back(slots);
      begin = end;
    }
    if (children.size() == 1) return split(tasks, nodes, level - 1);
    const std::vector<int> part = partition_exact(subgraph(tasks), sizes, seed_, &deadline_);
    std::vector<std::vector<TaskId>> parts(children.size());
    for (std::size_t k = 0; k < tasks.size(); ++k) parts[part[k]].push_back(tasks[k]);
    for (std::size_t c = 0; c < children.size(); ++c) split(parts[c], children[c], level - 1);
  }

  /// The edges among `tasks`, renumbered 0..tasks.size()-1 in their order.
  graph::CommGraph subgraph(const std::vector<TaskId>& tasks) {
    for (std::size_t k = 0; k < tasks.size(); ++k) local_[tasks[k]] = static_cast<int>(k);
    std::vector<graph::Edge> edges;
    for (TaskId t : tasks) {
      const auto targets = graph_.out_neighbors(t);
      const auto weights = graph_.out_weights(t);
      for (std::size_t k = 0; k < targets.size(); ++k)
        if (local_[targets[k]] >= 0) edges.push_back({local_[t], local_[targets[k]], weights[k]});
    }
    for (TaskId t : tasks) local_[t] = -1;
    return graph::CommGraph::from_edges(static_cast<TaskId>(tasks.size()), std::move(edges));
  }

  const graph::CommGraph& graph_;
  const topology::Allocation& alloc_;
  std::uint64_t seed_;
  const Deadline& deadline_;
  std::vector<int> local_;
  Mapping slot_of_;
};

}  // namespace

// The whole graph is split among the allocation's top-level groups (pods, dragonfly groups) in
// parts of exactly their slot counts (partition_exact: METIS recursive bisection, then exact sizes),
// each part among its group's next-level groups, and so on down to nodes; a group with one
// allocated subgroup is passed through. The partitions stop at the deadline (the parts left then
// take their tasks in id order), so that auto can give the multisection a share of its budget. Then refine, on the objective under options.routing, with
// the rest of the budget; `tree:start` stops after the multisection. A torus or mesh has no level
// between its nodes and the whole grid, so there tree is a METIS concentration into nodes taken in
// row-major order, then refine (split and hilbert know the grid's geometry better).
Mapping map_tree(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  if (!options.parameter.empty() && options.parameter != "start")
    throw InputError("tree: parameter '" + options.parameter + "' is not start");
  const Deadline deadline(options.time_budget_ms);
  const Mapping start = Multisection(graph, alloc, options.seed, deadline).run();
  if (options.parameter == "start") return start;
  MapOptions refine_options = options;
  refine_options.parameter.clear();
  refine_options.initial = &start;
  refine_options.time_budget_ms = std::max(0.0, deadline.remaining_ms());
  return map_refine(graph, alloc, refine_options);
}

}  // namespace rankmap::mapping
