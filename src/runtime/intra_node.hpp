// Mapping without network coordinates (concentration onto nodes) and socket-aware order within nodes.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/topology/allocation.hpp>

#include <span>

namespace rankmap::runtime {

/// Bytes of the edges whose two tasks run on different nodes.
double off_node_bytes(const graph::CommGraph& graph, const topology::Allocation& alloc,
                      std::span<const SlotId> slot_of);

/// When only nodes are known: fill each node with a group of tasks grown greedily by bytes
/// (GroupGrower on the symmetrised graph), so that little traffic leaves a node. Node i's group is
/// seeded with the task that already runs on node i's first slot, which keeps the launcher's order
/// wherever the graph gives no reason to move. Within a node, tasks keep ascending order on ascending slots.
mapping::Mapping concentrate_on_nodes(const graph::CommGraph& graph, const topology::Allocation& alloc);

/// Reassigns the tasks each node already holds among its slots so that tasks that talk most share
/// a socket. Nodes whose slots are all on one socket or unknown (-1) are left alone. Changes no
/// network metric, since no task changes node.
void order_within_sockets(const graph::CommGraph& graph, const topology::Allocation& alloc,
                          std::span<const int> socket_of_slot, mapping::Mapping& slot_of);

}  // namespace rankmap::runtime
