// Task edges aggregated into node-to-node flows, the input of every routing model.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/topology/allocation.hpp>

#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace rankmap::metrics {

/// `bytes` from grid node `src` to grid node `dst`.
struct NodeFlow {
  NodeId src;
  NodeId dst;
  double bytes;
};

/// Sums the graph's edges per (source node, destination node) under `slot_of`, dropping
/// traffic within a node. Sorted by (src, dst). `slot_of[t]` is the slot of task t.
std::vector<NodeFlow> node_flows(const graph::CommGraph& graph, const topology::Allocation& alloc,
                                 std::span<const SlotId> slot_of);
/// The same, or nothing when should_stop() returns true first; it is asked once per node.
std::optional<std::vector<NodeFlow>> node_flows(const graph::CommGraph& graph, const topology::Allocation& alloc,
                                                std::span<const SlotId> slot_of,
                                                const std::function<bool()>& should_stop);

/// Throws InputError unless `slot_of` has one entry per task, all distinct slots of `alloc`.
void check_mapping(const graph::CommGraph& graph, const topology::Allocation& alloc, std::span<const SlotId> slot_of);

}  // namespace rankmap::metrics
