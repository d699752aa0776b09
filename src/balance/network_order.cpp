// The topology-aware alias flow: bins (slots) taken node by node along the network, and what a migration costs on it.
#include <rankmap/balance/network_order.hpp>
#include <rankmap/types.hpp>

#include <cstddef>
#include <string>

namespace rankmap::balance {

std::vector<int> bin_order_by_nodes(const topology::Allocation& alloc, std::span<const int> node_order) {
  const auto nodes = static_cast<std::size_t>(alloc.num_nodes());
  if (node_order.size() != nodes)
    throw InputError("bin order: the node order has " + std::to_string(node_order.size()) + " entries for " +
                     std::to_string(nodes) + " nodes");
  std::vector<char> seen(nodes, 0);
  std::vector<int> order;
  order.reserve(static_cast<std::size_t>(alloc.num_slots()));
  for (std::size_t p = 0; p < nodes; ++p) {
    const int node = node_order[p];
    if (node < 0 || static_cast<std::size_t>(node) >= nodes || seen[node])
      throw InputError("bin order: the node order is not a permutation of the nodes: node_order[" +
                       std::to_string(p) + "] = " + std::to_string(node));
    seen[node] = 1;
    for (const SlotId s : alloc.slots_of_node(node)) order.push_back(s);
  }
  return order;
}

double migration_hop_bytes(const AliasFlow& flow, const topology::Allocation& alloc, double task_bytes) {
  const auto slots = static_cast<std::size_t>(alloc.num_slots());
  if (flow.sender.size() != slots || flow.amount.size() != slots)
    throw InputError("migration hop-bytes: the flow has " + std::to_string(flow.sender.size()) + " bins for " +
                     std::to_string(slots) + " slots");
  const topology::Grid& grid = alloc.grid();
  double total = 0;
  for (std::size_t i = 0; i < slots; ++i) {
    const int from = flow.sender[i];
    if (from < 0) continue;
    const int hops = grid.hops(alloc.node_of_slot(from), alloc.node_of_slot(static_cast<SlotId>(i)));
    total += static_cast<double>(flow.amount[i]) * task_bytes * hops;
  }
  return total;
}

}  // namespace rankmap::balance
