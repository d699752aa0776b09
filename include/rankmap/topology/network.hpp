// A network: nodes, directed channels with capacities, hop distances and node groups (DESIGN.md §5).
// Tori and meshes (Grid), SimGrid's fat-trees (FatTree) and dragonflies (Dragonfly) are networks.
#pragma once

#include <rankmap/topology/grid.hpp>
#include <rankmap/types.hpp>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::topology {

class FatTree;
class Dragonfly;

enum class NetworkKind { grid, fat_tree, dragonfly };

/// What every kind of network provides. Nodes are numbered 0..num_nodes()-1 (row-major on a grid,
/// SimGrid's host order on the others); channels are numbered 0..num_channel_slots()-1, and an index
/// may be a hole (has_channel() false) that no route uses.
///
/// Besides the whole network, nodes form groups level by level: level 0 is a node alone, level 1
/// the nodes of one router or leaf switch, ..., level num_levels() the whole network. Every group of
/// level l is a range of level_size(l) consecutive node ids. On a fat-tree or dragonfly the hop
/// distance between two different nodes depends only on their level-1 groups; a grid has no levels
/// between the node and the whole grid.
class NetworkModel {
 public:
  virtual ~NetworkModel() = default;

  virtual NetworkKind kind() const noexcept = 0;
  /// The spec Network::parse() reads back to the same network.
  virtual std::string to_string() const = 0;
  virtual NodeId num_nodes() const noexcept = 0;

  /// Links on a shortest path between two nodes (0 for a node to itself): the hop count of hop-bytes.
  virtual int hops(NodeId a, NodeId b) const = 0;
  /// Largest hops() between two nodes.
  virtual int diameter() const = 0;
  /// Smallest hops() between two different nodes (0 with a single node): every route between two
  /// nodes crosses at least this many channels.
  virtual int min_hops() const = 0;

  virtual ChannelId num_channel_slots() const noexcept = 0;
  virtual bool has_channel(ChannelId c) const = 0;
  /// The capacity multiplier of a channel: a load is bytes / capacity.
  virtual double capacity(ChannelId c) const = 0;
  virtual ChannelId num_channels() const = 0;
  /// The sum of the capacities of all channels.
  virtual double total_capacity() const = 0;
  /// The largest total capacity leaving (equally, entering) any single node.
  virtual double max_node_capacity() const = 0;
  /// A short description of a channel for reports, e.g. `up 3->17 #1` or `green router 5->6`.
  virtual std::string channel_name(ChannelId c) const = 0;

  /// The levels of node groups (see above): at least 1 (the whole network).
  virtual int num_levels() const = 0;
  /// Nodes per group of `level` (0..num_levels()); level 0 is 1.
  virtual NodeId level_size(int level) const = 0;
  /// A lower bound on hops() from a node to any node outside its group of `level` (< num_levels()).
  virtual int min_hops_beyond(int level) const = 0;
  /// Every route of channel c has an end (source or destination) among these nodes, for the
  /// networks' minimal routes: the first node and level of a group. The whole network if unknown.
  virtual std::pair<NodeId, int> channel_home(ChannelId c) const = 0;

  /// The routing models this network takes (routing.hpp), the default first.
  virtual std::vector<std::string> routing_names() const = 0;

  /// For every node x of `nodes` (distinct), the sum of hops(x, y) over all of them. O(n^2) here;
  /// fat-trees and dragonflies override it with O(n) counting by groups.
  virtual std::vector<double> hops_to_all(std::span<const NodeId> nodes) const;
};

/// A network by value: a shared, immutable model. Implicitly made from a Grid, so everything that
/// takes a network takes a grid.
class Network {
 public:
  /// An empty grid (no nodes), as Grid() is.
  Network();
  Network(Grid grid);  // NOLINT(google-explicit-constructor): every grid is a network
  Network(FatTree fat_tree);  // NOLINT(google-explicit-constructor)
  Network(Dragonfly dragonfly);  // NOLINT(google-explicit-constructor)

  /// Parses `torus:...`, `mesh:...`, `grid:...` (Grid::parse), `fattree:L;d1,...;u1,...;p1,...`
  /// (FatTree::parse) or `dragonfly:G,g;C,c;R,r;N` (Dragonfly::parse). Throws InputError naming the spec.
  static Network parse(std::string_view spec);

  NetworkKind kind() const noexcept { return model_->kind(); }
  bool is_grid() const noexcept { return kind() == NetworkKind::grid; }
  /// The grid of a torus or mesh; throws InputError naming the network otherwise.
  const Grid& grid() const;
  /// Nullptr unless the network is of that kind.
  const Grid* grid_if() const noexcept { return grid_; }
  const FatTree* fat_tree() const noexcept;
  const Dragonfly* dragonfly() const noexcept;
  const NetworkModel& model() const noexcept { return *model_; }

  std::string to_string() const { return model_->to_string(); }
  NodeId num_nodes() const noexcept { return model_->num_nodes(); }
  int hops(NodeId a, NodeId b) const { return model_->hops(a, b); }
  int diameter() const { return model_->diameter(); }
  int min_hops() const { return model_->min_hops(); }
  ChannelId num_channel_slots() const noexcept { return model_->num_channel_slots(); }
  bool has_channel(ChannelId c) const { return model_->has_channel(c); }
  double capacity(ChannelId c) const { return model_->capacity(c); }
  ChannelId num_channels() const { return model_->num_channels(); }
  double total_capacity() const { return model_->total_capacity(); }
  double max_node_capacity() const { return model_->max_node_capacity(); }
  std::string channel_name(ChannelId c) const { return model_->channel_name(c); }
  int num_levels() const { return model_->num_levels(); }
  NodeId level_size(int level) const { return model_->level_size(level); }
  int min_hops_beyond(int level) const { return model_->min_hops_beyond(level); }
  std::pair<NodeId, int> channel_home(ChannelId c) const { return model_->channel_home(c); }
  std::vector<std::string> routing_names() const { return model_->routing_names(); }
  std::vector<double> hops_to_all(std::span<const NodeId> nodes) const { return model_->hops_to_all(nodes); }

  /// Same kind and same parameters.
  friend bool operator==(const Network& a, const Network& b) { return a.to_string() == b.to_string(); }

 private:
  std::shared_ptr<const NetworkModel> model_;
  const Grid* grid_ = nullptr;  ///< into model_ when it is a grid
};

/// The largest number of channel indices a fat-tree or dragonfly may have (load vectors hold a
/// double per channel).
inline constexpr ChannelId kMaxNetworkChannels = ChannelId{1} << 30;

/// Throws InputError naming `algorithm` and the network unless `network` is a torus or mesh: for
/// the mappers that work on coordinates (hilbert, dimorder, split, rahtm, ...).
void require_grid(const Network& network, std::string_view algorithm);

}  // namespace rankmap::topology
