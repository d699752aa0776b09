// Aggregation of task edges into node-to-node flows.
#include <rankmap/metrics/node_flows.hpp>

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
  std::vector<int> node_of_task(slot_of.size());
  for (std::size_t t = 0; t < slot_of.size(); ++t) node_of_task[t] = alloc.node_index_of_slot(slot_of[t]);
  const graph::CommGraph between_nodes = graph.contracted(node_of_task, alloc.num_nodes());
  std::vector<NodeFlow> flows;
  flows.reserve(static_cast<std::size_t>(between_nodes.num_edges()));
  for (int a = 0; a < alloc.num_nodes(); ++a) {
    const auto targets = between_nodes.out_neighbors(a);
    const auto bytes = between_nodes.out_weights(a);
    for (std::size_t k = 0; k < targets.size(); ++k)
      if (bytes[k] > 0) flows.push_back({alloc.node(a), alloc.node(targets[k]), bytes[k]});
  }
  return flows;
}

}  // namespace rankmap::metrics
