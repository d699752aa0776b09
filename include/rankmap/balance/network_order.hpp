// The topology-aware alias flow: bins (slots) taken node by node along the network, and what a migration costs on it.
#pragma once

#include <rankmap/balance/alias_flow.hpp>
#include <rankmap/topology/allocation.hpp>

#include <span>
#include <vector>

namespace rankmap::balance {

/// The bins of `alloc` (bin s is slot s) node by node: the nodes in `node_order` (dense node
/// indices, a permutation of 0..num_nodes()-1), the slots of each node ascending. Feeding
/// this to alias_flow() pairs bins that are close in `node_order`. Throws InputError if
/// `node_order` is not a permutation of the nodes.
std::vector<int> bin_order_by_nodes(const topology::Allocation& alloc, std::span<const int> node_order);

/// The hop-bytes of carrying out `flow` on `alloc`: the sum over receiving bins i of
/// amount[i] * task_bytes * hops(node of slot sender[i], node of slot i); 0 within a node.
/// Throws InputError if the flow does not have one entry per slot.
double migration_hop_bytes(const AliasFlow& flow, const topology::Allocation& alloc, double task_bytes);

}  // namespace rankmap::balance
