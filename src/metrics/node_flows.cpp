// Aggregation of task edges into node-to-node flows.
#include <rankmap/metrics/node_flows.hpp>

#include <algorithm>
#include <cstdint>

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
  return *node_flows(graph, alloc, slot_of, [] { return false; });
}

// The rows of the graph contracted to nodes become flows as they are summed: the contracted graph
// itself was a second copy of every flow (12 bytes each, on top of the flows' 24), and building
// it could not be stopped: on alltoall of 1,024 tasks (a million flows) auto's first scoring and
// its static routing beside it each spent 100 ms and more there, on a machine where a page fault
// took 20 us, and auto took 240 to 330 ms of its 200.
std::optional<std::vector<NodeFlow>> node_flows(const graph::CommGraph& graph, const topology::Allocation& alloc,
                                                std::span<const SlotId> slot_of,
                                                const std::function<bool()>& should_stop) {
  std::vector<int> node_of_task(slot_of.size());
  for (std::size_t t = 0; t < slot_of.size(); ++t) node_of_task[t] = alloc.node_index_of_slot(slot_of[t]);
  const auto nodes = static_cast<std::uint64_t>(alloc.num_nodes());
  std::vector<NodeFlow> flows;
  // Pages of the reserve are touched only as flows fill them.
  flows.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(graph.num_edges(), nodes * (nodes - 1))));
  const bool complete = graph.for_each_contracted_row(
      node_of_task, alloc.num_nodes(), [&](int a, std::span<const int> targets, std::span<const double> bytes) {
        if (should_stop()) return false;
        for (std::size_t k = 0; k < targets.size(); ++k)
          if (bytes[k] > 0) flows.push_back({alloc.node(a), alloc.node(targets[k]), bytes[k]});
        return true;
      });
  if (!complete) return std::nullopt;
  return flows;
}

}  // namespace rankmap::metrics
