// Small helpers on slots shared by the mappers: laying tasks along an order, slots per node.
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include <span>
#include <vector>

namespace rankmap::mapping::detail {

/// slot_of[task_order[i]] = slot_order[i]; with no task order, task i goes to slot_order[i].
inline Mapping lay_along(std::span<const SlotId> slot_order, std::span<const TaskId> task_order = {}) {
  Mapping slot_of(slot_order.size());
  for (std::size_t i = 0; i < slot_order.size(); ++i)
    slot_of[task_order.empty() ? i : static_cast<std::size_t>(task_order[i])] = slot_order[i];
  return slot_of;
}

/// The number of slots of every node (dense index).
inline std::vector<int> node_slot_counts(const topology::Allocation& alloc) {
  std::vector<int> counts(static_cast<std::size_t>(alloc.num_nodes()));
  for (int i = 0; i < alloc.num_nodes(); ++i) counts[i] = static_cast<int>(alloc.slots_of_node(i).size());
  return counts;
}

}  // namespace rankmap::mapping::detail
