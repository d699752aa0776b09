// Routing models: how a node-to-node flow spreads over a network's channels (DESIGN.md §5).
#pragma once

#include <rankmap/topology/grid.hpp>
#include <rankmap/topology/network.hpp>
#include <rankmap/types.hpp>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::topology {

enum class RoutingKind {
  standard,      ///< the network's own: its first routing name (Network::routing_names)
  dor,           ///< grid: dimension-ordered, shortest direction per dimension, torus tie goes +
  adaptive,      ///< every network: even split over the minimal paths (both directions on a torus tie)
  adaptive_hop,  ///< grid: at every hop, even split among the productive directions
  dmodk,         ///< fat-tree: SimGrid's static destination-mod-k routes
  minimal,       ///< dragonfly: SimGrid's static minimal routes
  valiant,       ///< dragonfly: the average over every intermediate group (docs/networks.md)
};

/// A routing model by name: `adaptive`, `adaptive-hop`, `dor` or `dor:<order>` where
/// `<order>` lists the dimensions in correction order, e.g. `dor:210` (tori and meshes);
/// `adaptive` or `dmodk` (fat-trees); `adaptive`, `minimal` or `valiant` (dragonflies).
/// `default`, the default, is each network's own: `adaptive` on tori and meshes, `dmodk` on
/// fat-trees and `minimal` on dragonflies. Fat-trees and dragonflies route statically in SimGrid
/// and in InfiniBand's subnet managers, and their static MCL predicts simulated time better than
/// the even split does (docs/decisions.md).
struct RoutingSpec {
  RoutingKind kind = RoutingKind::standard;
  std::vector<int> dim_order;  ///< dor only; empty means 0, 1, ..., n-1

  /// Throws InputError naming the spec when it is not one of the forms above.
  static RoutingSpec parse(std::string_view spec);
  std::string to_string() const;
  /// The spec with `default` replaced by what it means on `network`.
  RoutingSpec on(const Network& network) const;
};

/// The share of a flow's bytes that crosses one channel.
struct ChannelShare {
  ChannelId channel;
  double fraction;
};

/// One of several flows to the same destination: where it starts and how many bytes it carries.
struct SourceBytes {
  NodeId src;
  double bytes;
};

/// Turns node-to-node flows into loads on directed channels.
///
/// Implementations are safe to call from several threads at once.
class RoutingModel {
 public:
  virtual ~RoutingModel() = default;
  virtual const Network& network() const noexcept = 0;
  /// The grid of a grid routing model; throws InputError on other networks.
  const Grid& grid() const { return network().grid(); }
  virtual std::string name() const = 0;

  /// Appends to `out` every channel a unit flow from src to dst crosses, with its share.
  /// The shares along any cut between src and dst sum to 1.
  virtual void route(NodeId src, NodeId dst, std::vector<ChannelShare>& out) const = 0;

  /// As route(), with every share divided by its channel's capacity: the load a unit flow adds.
  virtual void route_loads(NodeId src, NodeId dst, std::vector<ChannelShare>& out) const;

  /// Adds `bytes * share / capacity` to loads[channel] for every channel of the route.
  /// `loads` is indexed by channel id (size network().num_channel_slots()); negative bytes remove a flow.
  virtual void add_flow(NodeId src, NodeId dst, double bytes, std::span<double> loads) const = 0;

  /// As add_flow() for every flow of `sources` to `dst` (the loads equal up to rounding).
  virtual void add_flows_to(NodeId dst, std::span<const SourceBytes> sources, std::span<double> loads) const;
  /// True when add_flows_to() costs less than add_flow() per flow, so that a caller with many flows
  /// should group them by destination.
  virtual bool spreads_by_destination() const { return false; }
};

/// Builds the model a spec names for a network. Throws InputError if the network does not take
/// that routing (naming the ones it takes), or if a dor order does not list every dimension of
/// the grid exactly once.
std::unique_ptr<RoutingModel> make_routing_model(const Network& network, const RoutingSpec& spec);
std::unique_ptr<RoutingModel> make_routing_model(const Network& network, std::string_view spec);
std::unique_ptr<RoutingModel> make_routing_model(const Grid& grid, const RoutingSpec& spec);
std::unique_ptr<RoutingModel> make_routing_model(const Grid& grid, std::string_view spec);

/// The model make_routing_model() builds, shared with every other caller that holds one for the same
/// network and spec at the time: a grid model caches its route patterns, and a mapper that built its
/// own per search paid for every pattern again (a refine's first scoring on 1,000 scattered nodes of
/// torus:16x24x24 spent more time building patterns than adding flows). Released with its last holder.
/// Thread-safe; throws as make_routing_model() does.
std::shared_ptr<const RoutingModel> shared_routing_model(const Network& network, const RoutingSpec& spec);

}  // namespace rankmap::topology
