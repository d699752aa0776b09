// The routing models of the fat-tree and the dragonfly, behind make_routing_model().
#pragma once

#include <rankmap/topology/routing.hpp>

#include <memory>

namespace rankmap::topology::detail {

/// A routing model that computes each route as a list of shares; add_flow() follows from route().
class ShareRouting : public RoutingModel {
 public:
  explicit ShareRouting(Network network) : network_(std::move(network)) {}
  const Network& network() const noexcept override { return network_; }
  void add_flow(NodeId src, NodeId dst, double bytes, std::span<double> loads) const override;

 private:
  Network network_;
};

/// The model of `kind` for a fat-tree or dragonfly, or nullptr if that network does not take it.
std::unique_ptr<RoutingModel> make_network_routing_model(const Network& network, RoutingKind kind);

/// Fat-tree models (fat_tree_routing.cpp) and dragonfly models (dragonfly_routing.cpp).
std::unique_ptr<RoutingModel> make_fat_tree_routing(const Network& network, RoutingKind kind);
std::unique_ptr<RoutingModel> make_dragonfly_routing(const Network& network, RoutingKind kind);

}  // namespace rankmap::topology::detail
