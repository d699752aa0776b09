// SimGrid's FAT_TREE cluster (a parallel-ports generalised fat-tree), with SimGrid's numbering.
#pragma once

#include <rankmap/topology/network.hpp>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::topology {

/// `fattree:L;d1,...,dL;u1,...,uL;p1,...,pL`, SimGrid's `topo_parameters` of a FAT_TREE cluster
/// (src/kernel/routing/FatTreeZone.cpp, SimGrid 3.32): L switch levels; a switch of level l has d_l
/// children; an element of level l-1 has u_l parents at level l; p_l parallel links join each such
/// pair. Level 0 holds the d_1 x ... x d_L nodes. Tapering follows from the ports: a level-1 switch
/// has d_1 p_1 links down and u_2 p_2 links up.
///
/// Elements (nodes and switches) are numbered by level, then by position in the level, as SimGrid
/// does. An element of level l has a label of L digits: digit j < l counts in base u_{j+1} (which
/// parent it is), digit j >= l in base d_{j+1} (which child); its position is the label read with
/// digit 0 fastest. Node n is SimGrid's n-th host (the n-th radical of the cluster). A child and a
/// parent are joined when their labels differ at most in digit l (the child's level); copy k of
/// their p_{l+1} links is the child's up port `parent digit + k u_{l+1}` and the parent's down port
/// `child digit + k d_{l+1}`.
///
/// Every link is two channels of capacity 1 (SimGrid's SPLITDUPLEX links, one per direction):
/// channel 2 i + 0 goes up, 2 i + 1 down, where link i is port q of the element at (level, position):
/// i = offset(level) + position * u_{level+1} p_{level+1} + q.
class FatTree final : public NetworkModel {
 public:
  static constexpr int kMaxLevels = 8;

  /// Throws InputError unless 1 <= L <= kMaxLevels, every count is at least 1, and the nodes
  /// (< 2^31) and channels (<= kMaxNetworkChannels) fit.
  FatTree(std::vector<int> down, std::vector<int> up, std::vector<int> parallel);
  /// Parses the text after `fattree:`, e.g. `2;4,4;1,2;1,2`. Throws InputError naming `spec`.
  static FatTree parse(std::string_view spec);

  int levels() const noexcept { return levels_; }
  /// d_l, u_l, p_l for l = 1..L, as in the spec.
  int down(int l) const { return down_[l - 1]; }
  int up(int l) const { return up_[l - 1]; }
  int parallel(int l) const { return parallel_[l - 1]; }

  /// Elements (nodes at level 0, switches above) of `level` 0..L.
  NodeId elements(int level) const { return count_[level]; }
  /// How many ancestors a node has at `level`: u_1 ... u_level (the switches of a level that lie
  /// above one node are numbered consecutively from (node / level_size(level)) * ancestors(level)).
  NodeId ancestors(int level) const { return stride_[level][level]; }
  /// Digit j of the label of the element at (level, position).
  int digit(int level, NodeId position, int j) const {
    return static_cast<int>((position / stride_[level][j]) % radix_[level][j]);
  }
  /// Up ports of an element of `level` (< L): u_{level+1} p_{level+1}.
  int up_ports(int level) const { return up_[level] * parallel_[level]; }
  /// Down ports of a switch of `level` (>= 1): d_level p_level.
  int down_ports(int level) const { return down_[level - 1] * parallel_[level - 1]; }
  /// The parent reached from (level, position) through up port q.
  NodeId parent(int level, NodeId position, int q) const;
  /// The child reached from the switch (level, position) through down port i.
  NodeId child(int level, NodeId position, int i) const;
  /// The up port of that child which is the same link (child(level, position, i) at level-1).
  int child_up_port(int level, NodeId position, int i) const;
  /// SimGrid's id of an element: the node number for nodes; switches count down from 2N-1 in
  /// level order, as FatTreeZone::generate_switches numbers them.
  long long simgrid_id(int level, NodeId position) const;

  /// The channel of up port q of (level, position): up = toward the parent.
  ChannelId channel(int level, NodeId position, int q, bool going_up) const {
    return 2 * (link_offset_[level] + position * up_ports(level) + q) + (going_up ? 0 : 1);
  }
  struct ChannelEnds {
    int level;          ///< of the lower end
    NodeId position;    ///< of the lower end
    int port;           ///< its up port
    bool going_up;
  };
  ChannelEnds ends(ChannelId c) const;
  /// True if the node is below the element (level, position), i.e. in its subtree.
  bool is_below(NodeId node, int level, NodeId position) const;

  NetworkKind kind() const noexcept override { return NetworkKind::fat_tree; }
  std::string to_string() const override;
  NodeId num_nodes() const noexcept override { return count_[0]; }
  int hops(NodeId a, NodeId b) const override;
  int diameter() const override;
  int min_hops() const override { return count_[0] > 1 ? 2 : 0; }
  ChannelId num_channel_slots() const noexcept override { return 2 * link_offset_[levels_]; }
  bool has_channel(ChannelId c) const override { return c >= 0 && c < num_channel_slots(); }
  double capacity(ChannelId) const override { return 1.0; }
  ChannelId num_channels() const override { return num_channel_slots(); }
  double total_capacity() const override { return static_cast<double>(num_channel_slots()); }
  double max_node_capacity() const override { return up_ports(0); }
  std::string channel_name(ChannelId c) const override;
  int num_levels() const override { return levels_; }
  NodeId level_size(int level) const override { return stride_[0][level]; }
  int min_hops_beyond(int level) const override { return 2 * (level + 1); }
  std::pair<NodeId, int> channel_home(ChannelId c) const override;
  std::vector<std::string> routing_names() const override { return {"dmodk", "adaptive"}; }
  std::vector<double> hops_to_all(std::span<const NodeId> nodes) const override;

  /// The switch level of the lowest common ancestors of two nodes (0 for a node and itself).
  int common_level(NodeId a, NodeId b) const;

 private:
  int levels_ = 0;
  std::vector<int> down_, up_, parallel_;
  std::array<NodeId, kMaxLevels + 2> count_{};
  std::array<std::array<NodeId, kMaxLevels + 1>, kMaxLevels + 1> stride_{};  ///< [level][digit]; [.][L] = count
  std::array<std::array<int, kMaxLevels>, kMaxLevels + 1> radix_{};
  std::array<ChannelId, kMaxLevels + 1> link_offset_{};  ///< first link above each level; [L] = all links
};

}  // namespace rankmap::topology
