// Routing models: how a node-to-node flow spreads over the grid's channels (DESIGN.md §5).
#pragma once

#include <rankmap/topology/grid.hpp>
#include <rankmap/types.hpp>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::topology {

enum class RoutingKind {
  dor,           ///< dimension-ordered, shortest direction per dimension, torus tie goes +
  adaptive,      ///< even split over all minimal paths (both directions on a tie)
  adaptive_hop,  ///< at every hop, even split among the productive directions
};

/// A routing model by name: `adaptive`, `adaptive-hop`, `dor` or `dor:<order>` where
/// `<order>` lists the dimensions in correction order, e.g. `dor:210`.
struct RoutingSpec {
  RoutingKind kind = RoutingKind::adaptive;
  std::vector<int> dim_order;  ///< dor only; empty means 0, 1, ..., n-1

  /// Throws InputError naming the spec when it is not one of the forms above.
  static RoutingSpec parse(std::string_view spec);
  std::string to_string() const;
};

/// The share of a flow's bytes that crosses one channel.
struct ChannelShare {
  ChannelId channel;
  double fraction;
};

/// Turns node-to-node flows into loads on directed channels.
///
/// Implementations are safe to call from several threads at once.
class RoutingModel {
 public:
  virtual ~RoutingModel() = default;
  virtual const Grid& grid() const noexcept = 0;
  virtual std::string name() const = 0;

  /// Appends to `out` every channel a unit flow from src to dst crosses, with its share.
  /// The shares along any cut between src and dst sum to 1.
  virtual void route(NodeId src, NodeId dst, std::vector<ChannelShare>& out) const = 0;

  /// Adds `bytes * share / capacity` to loads[channel] for every channel of the route.
  /// `loads` is indexed by channel id (size grid().num_channel_slots()); negative bytes remove a flow.
  virtual void add_flow(NodeId src, NodeId dst, double bytes, std::span<double> loads) const = 0;
};

/// Builds the model a spec names for a grid. Throws InputError if a dor order does not
/// list every dimension of the grid exactly once.
std::unique_ptr<RoutingModel> make_routing_model(const Grid& grid, const RoutingSpec& spec);
std::unique_ptr<RoutingModel> make_routing_model(const Grid& grid, std::string_view spec);

}  // namespace rankmap::topology
