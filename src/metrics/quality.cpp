// All metrics of one mapping at once.
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>
#include <rankmap/metrics/lower_bound.hpp>
#include <rankmap/metrics/quality.hpp>

namespace rankmap::metrics {

Quality evaluate(const graph::CommGraph& graph, const topology::Allocation& alloc, std::span<const SlotId> slot_of) {
  check_mapping(graph, alloc, slot_of);
  const auto flows = node_flows(graph, alloc, slot_of);
  const topology::Grid& grid = alloc.grid();
  auto mcl_under = [&](topology::RoutingKind kind) {
    return max_channel_load(channel_loads(flows, *topology::make_routing_model(grid, topology::RoutingSpec{kind, {}})));
  };
  Quality q;
  q.hop_bytes = hop_bytes(graph, alloc, slot_of);
  q.mcl_dor = mcl_under(topology::RoutingKind::dor);
  q.mcl_adaptive = mcl_under(topology::RoutingKind::adaptive);
  q.mcl_adaptive_hop = mcl_under(topology::RoutingKind::adaptive_hop);
  q.dilation = dilation(graph, alloc, slot_of);
  q.mcl_lower_bound = mcl_lower_bound(graph, alloc);
  return q;
}

}  // namespace rankmap::metrics
