// All metrics of one mapping at once.
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>
#include <rankmap/metrics/lower_bound.hpp>
#include <rankmap/metrics/quality.hpp>

namespace rankmap::metrics {

Quality evaluate(const graph::CommGraph& graph, const topology::Allocation& alloc, std::span<const SlotId> slot_of) {
  check_mapping(graph, alloc, slot_of);
  const auto flows = node_flows(graph, alloc, slot_of);
  Quality q;
  q.hop_bytes = hop_bytes(graph, alloc, slot_of);
  for (const std::string& name : alloc.network().routing_names()) {
    const double mcl = max_channel_load(channel_loads(flows, *topology::make_routing_model(alloc.network(), name)));
    q.mcl_by_routing.emplace_back(name, mcl);
    if (alloc.network().is_grid()) {
      const topology::RoutingKind kind = topology::RoutingSpec::parse(name).kind;
      (kind == topology::RoutingKind::dor ? q.mcl_dor
       : kind == topology::RoutingKind::adaptive ? q.mcl_adaptive
                                                 : q.mcl_adaptive_hop) = mcl;
    }
  }
  q.dilation = dilation(graph, alloc, slot_of);
  q.mcl_lower_bound = mcl_lower_bound(graph, alloc);
  return q;
}

}  // namespace rankmap::metrics
