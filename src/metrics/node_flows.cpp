// Aggregation of task edges into node-to-node flows.
#include <rankmap/metrics/node_flows.hpp>

#include <algorithm>

namespace rankmap::metrics {

void check_mapping(const graph::CommGraph& graph, const topology::Allocation& alloc, std::span<const SlotId> slot_of) {
  if (static_cast<TaskId>(slot_of.size()) != graph.num_tasks())
    throw InputError("mapping has " + std::to_string(slot_of.size()) + " entries but the graph has " +
                     std::to_string(graph.num_tasks()) + " tasks");
  std::vector<bool> used(static_cast<std::size_t>(alloc.num_slots()), false);
  for (std::size_t t = 0; t < slot_of.size(); ++t) {
    const SlotId s = slot_of[t];
    if (s < 0 || s >= alloc.num_slots())
      throw InputError("mapping: task " + std::to_string(t) + " is on slot " + std::to_string(s) +
                       ", outside the allocation's " + std::to_string(alloc.num_slots()) + " slots");
    if (used[s]) throw InputError("mapping: slot " + std::to_string(s) + " is used twice (task " + std::to_string(t) + ")");
    used[s] = true;
  }
}

std::vector<NodeFlow> node_flows(const graph::CommGraph& graph, const topology::Allocation& alloc,
                                 std::span<const SlotId> slot_of) {
  const std::int64_t n = alloc.num_nodes();
  std::vector<std::pair<std::int64_t, double>> keyed;
  keyed.reserve(static_cast<std::size_t>(graph.num_edges()));
  for (TaskId t = 0; t < graph.num_tasks(); ++t) {
    const std::int64_t a = alloc.node_index_of_slot(slot_of[t]);
    const auto targets = graph.out_neighbors(t);
    const auto weights = graph.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const std::int64_t b = alloc.node_index_of_slot(slot_of[targets[k]]);
      if (a != b && weights[k] > 0) keyed.emplace_back(a * n + b, weights[k]);
    }
  }
  std::sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<NodeFlow> flows;
  for (std::size_t i = 0; i < keyed.size();) {
    const std::int64_t key = keyed[i].first;
    double bytes = 0;
    for (; i < keyed.size() && keyed[i].first == key; ++i) bytes += keyed[i].second;
    flows.push_back({alloc.node(static_cast<int>(key / n)), alloc.node(static_cast<int>(key % n)), bytes});
  }
  return flows;
}

}  // namespace rankmap::metrics
