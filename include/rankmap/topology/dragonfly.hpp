// SimGrid's DRAGONFLY cluster (Cray Cascade's three-level dragonfly), with SimGrid's numbering.
#pragma once

#include <rankmap/topology/network.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace rankmap::topology {

/// `dragonfly:G,g;C,c;R,r;N`, SimGrid's `topo_parameters` of a DRAGONFLY cluster
/// (src/kernel/routing/DragonflyZone.cpp, SimGrid 3.32): G groups joined all-to-all by g parallel
/// global (blue) links per pair; C chassis per group, the routers of the same blade in different
/// chassis joined all-to-all by c black links; R routers (blades) per chassis joined all-to-all by
/// r green links; N nodes per router.
///
/// Node ((group * C + chassis) * R + blade) * N + k is SimGrid's host of that rank; router
/// (group * C + chassis) * R + blade is SimGrid's router of that index. As in SimGrid, the blue link
/// between groups i and j joins router (chassis 0, blade j) of group i to router (chassis 0, blade i)
/// of group j, so a dragonfly needs G <= R: SimGrid 3.32 routes between groups only through these.
///
/// SimGrid joins n parallel links into one link of n times the bandwidth, so a channel here has
/// capacity g, c or r (1 for the link between a node and its router). Channels:
/// `2 n` node n to its router and `2 n + 1` back; then green(router, blade), black(router, chassis)
/// and blue(router), each index a hole where no such link exists.
class Dragonfly final : public NetworkModel {
 public:
  struct Params {
    int groups = 1, blue_links = 1;
    int chassis = 1, black_links = 1;
    int routers = 1, green_links = 1;
    int nodes = 1;  ///< per router
  };
  /// A router's place: group, chassis, blade (SimGrid's names).
  struct Router {
    int group, chassis, blade;
  };

  /// Throws InputError unless every count is at least 1, groups <= routers, and the nodes
  /// (< 2^31) and channels fit.
  explicit Dragonfly(Params params);
  /// Parses the text after `dragonfly:`, e.g. `3,1;2,1;4,1;2`. Throws InputError naming `spec`.
  static Dragonfly parse(std::string_view spec);

  const Params& params() const noexcept { return p_; }
  int num_routers() const noexcept { return num_routers_; }
  /// SimGrid's router index of a router, and back.
  int router_index(int group, int chassis, int blade) const { return (group * p_.chassis + chassis) * p_.routers + blade; }
  Router router(int index) const {
    return {index / (p_.chassis * p_.routers), (index / p_.routers) % p_.chassis, index % p_.routers};
  }
  int router_of(NodeId node) const { return static_cast<int>(node / p_.nodes); }

  ChannelId node_to_router(NodeId node) const { return 2 * node; }
  ChannelId router_to_node(NodeId node) const { return 2 * node + 1; }
  /// From router `from` to the router of blade `blade` in the same chassis.
  ChannelId green(int from, int blade) const { return green_base_ + ChannelId{from} * p_.routers + blade; }
  /// From router `from` to the router of the same blade in chassis `chassis` of the same group.
  ChannelId black(int from, int chassis) const { return black_base_ + ChannelId{from} * p_.chassis + chassis; }
  /// The global link leaving router `from` (chassis 0, blade b of group h leads to group b).
  ChannelId blue(int from) const { return blue_base_ + from; }
  /// Hops between two routers on a shortest path (0 for a router and itself).
  int router_hops(int a, int b) const;

  NetworkKind kind() const noexcept override { return NetworkKind::dragonfly; }
  std::string to_string() const override;
  NodeId num_nodes() const noexcept override { return num_nodes_; }
  int hops(NodeId a, NodeId b) const override;
  int diameter() const override;
  int min_hops() const override;
  ChannelId num_channel_slots() const noexcept override { return blue_base_ + num_routers_; }
  bool has_channel(ChannelId c) const override;
  double capacity(ChannelId c) const override;
  ChannelId num_channels() const override;
  double total_capacity() const override;
  double max_node_capacity() const override { return 1.0; }
  std::string channel_name(ChannelId c) const override;
  int num_levels() const override { return 4; }
  NodeId level_size(int level) const override;
  int min_hops_beyond(int level) const override { return level == 0 && p_.nodes > 1 ? 2 : 3; }
  std::pair<NodeId, int> channel_home(ChannelId c) const override;
  std::vector<std::string> routing_names() const override { return {"minimal", "adaptive", "valiant"}; }
  std::vector<double> hops_to_all(std::span<const NodeId> nodes) const override;

 private:
  Params p_;
  int num_routers_ = 0;
  NodeId num_nodes_ = 0;
  ChannelId green_base_ = 0, black_base_ = 0, blue_base_ = 0;
};

}  // namespace rankmap::topology
