// The topology-aware alias flow: bins (slots) taken in the Hilbert order of their nodes, and what a migration costs on the network.
#include <rankmap/balance/network_order.hpp>
#include <rankmap/mapping/hilbert.hpp>
#include <rankmap/types.hpp>

#include <cstddef>
#include <string>

namespace rankmap::balance {

AliasFlow alias_flow_hilbert(std::span<const long long> counts, const topology::Allocation& alloc) {
  if (counts.size() != static_cast<std::size_t>(alloc.num_slots()))
    throw InputError("alias flow: " + std::to_string(counts.size()) + " counts for an allocation of " +
                     std::to_string(alloc.num_slots()) + " slots");
  return alias_flow(counts, mapping::hilbert_slot_order(alloc));
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
