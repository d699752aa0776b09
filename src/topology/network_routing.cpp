// Routing on networks other than grids: loads from shares, and the factory by network kind.
#include "network_routing.hpp"

namespace rankmap::topology::detail {

void ShareRouting::add_flow(NodeId src, NodeId dst, double bytes, std::span<double> loads) const {
  thread_local std::vector<ChannelShare> shares;
  shares.clear();
  route(src, dst, shares);
  for (const ChannelShare& s : shares) loads[s.channel] += bytes * s.fraction / network_.capacity(s.channel);
}

std::unique_ptr<RoutingModel> make_network_routing_model(const Network& network, RoutingKind kind) {
  switch (network.kind()) {
    case NetworkKind::fat_tree: return make_fat_tree_routing(network, kind);
    case NetworkKind::dragonfly: return make_dragonfly_routing(network, kind);
    case NetworkKind::grid: break;
  }
  return nullptr;
}

}  // namespace rankmap::topology::detail
