// A k_0 x ... x k_{n-1} grid whose dimensions each wrap (torus) or not (mesh), and its channels.
#pragma once

#include <rankmap/types.hpp>

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::topology {

/// The most dimensions a grid may have; BG/Q uses 5, and 6 leaves room for a slot dimension.
inline constexpr int kMaxDims = 8;
/// The largest extent of one dimension; relative routes store offsets in 16 bits.
inline constexpr int kMaxExtent = 16384;

/// Fixed-capacity coordinates, so hot loops never allocate.
using Coords = std::array<int, kMaxDims>;

/// Which way a channel leaves its node along one dimension.
enum class Direction : int { plus = 0, minus = 1 };

/// The network: nodes at integer coordinates, links between neighbours along one dimension.
///
/// Nodes are numbered row-major with dimension 0 slowest. Every link carries two directed
/// channels. A torus dimension of extent 2 has two parallel links between its two nodes;
/// they are modelled as the `plus` channel alone, with capacity 2 (DESIGN.md §5).
class Grid {
 public:
  Grid() = default;
  /// Throws InputError unless 1 <= extents.size() <= kMaxDims, every extent is 1..kMaxExtent,
  /// torus.size() == extents.size(), and the node count fits in 2^31.
  Grid(std::vector<int> extents, std::vector<bool> torus);

  /// Parses `torus:4x4x4`, `mesh:8x8x16` or `grid:4x4x2:torus=110` (one flag per dimension).
  static Grid parse(std::string_view spec);
  /// The canonical spec accepted by parse(): `torus:...` or `mesh:...` when uniform.
  std::string to_string() const;

  int ndims() const noexcept { return ndims_; }
  int extent(int d) const { return extents_[d]; }
  bool is_torus(int d) const { return torus_[d]; }
  const std::vector<int>& extents() const noexcept { return extent_vec_; }
  NodeId num_nodes() const noexcept { return num_nodes_; }
  NodeId stride(int d) const { return strides_[d]; }

  NodeId node_at(std::span<const int> coords) const;
  Coords coords_of(NodeId node) const;
  int coord(NodeId node, int d) const { return static_cast<int>((node / strides_[d]) % extents_[d]); }
  /// The node one step from `node` along `d`, or -1 past a mesh boundary.
  NodeId neighbor(NodeId node, int d, Direction dir) const;

  /// The signed minimal offset from coordinate a to b along d. On a torus tie
  /// (|offset| == k/2) the result is positive, which is also the `dor` direction.
  int offset(int a, int b, int d) const;
  /// True when a -> b along d is a torus tie with two minimal directions (k even, > 2).
  bool is_tie(int a, int b, int d) const;
  /// Minimal hop count between two nodes over the whole grid.
  int hops(NodeId a, NodeId b) const;
  /// The same between two nodes given by their coordinates (as coords_of() gives them: each in
  /// 0..extent-1, since unlike offset() this takes no modulo): callers
  /// that measure many pairs look the coordinates up once per node instead of dividing per pair.
  int hops(const Coords& a, const Coords& b) const {
    int h = 0;
    for (int d = 0; d < ndims_; ++d) h += axis_hops(d, a[d], b[d]);
    return h;
  }
  /// The hops between coordinates a and b along dimension d (both in 0..extent-1).
  int axis_hops(int d, int a, int b) const {
    const int delta = a > b ? a - b : b - a;
    return torus_[d] && 2 * delta > extents_[d] ? extents_[d] - delta : delta;
  }
  /// offset() for coordinates a and b along dimension d both in 0..extent-1, without its two
  /// divisions: route patterns are looked up by it per dimension of every flow routed.
  int axis_offset(int d, int a, int b) const {
    int delta = b - a;
    if (!torus_[d]) return delta;
    if (delta < 0) delta += extents_[d];
    return 2 * delta > extents_[d] ? delta - extents_[d] : delta;
  }
  /// Largest hop count between any two nodes.
  int diameter() const;

  /// Channel numbering: `(node * ndims + d) * 2 + dir`. Not every index is a real channel.
  ChannelId num_channel_slots() const noexcept { return num_nodes_ * ndims_ * 2; }
  ChannelId channel(NodeId from, int d, Direction dir) const {
    return (from * ndims_ + d) * 2 + static_cast<int>(dir);
  }
  NodeId channel_source(ChannelId c) const { return c / (2 * ndims_); }
  int channel_dim(ChannelId c) const { return static_cast<int>((c / 2) % ndims_); }
  Direction channel_direction(ChannelId c) const { return static_cast<Direction>(c % 2); }
  /// True if the channel exists: inside a mesh, extent > 1, and only `plus` when a torus has extent 2.
  bool has_channel(ChannelId c) const;
  /// The capacity multiplier of every channel along d: 2 for a torus of extent 2, else 1.
  double capacity(int d) const { return capacity_[d]; }
  /// How many real channels the grid has.
  ChannelId num_channels() const;
  /// The sum of the capacities of all real channels.
  double total_capacity() const;
  /// The largest total capacity leaving (equally, entering) any single node.
  double max_node_capacity() const;

  friend bool operator==(const Grid& a, const Grid& b) {
    return a.extent_vec_ == b.extent_vec_ && a.torus_vec_ == b.torus_vec_;
  }

 private:
  static Grid parse_unchecked(std::string_view spec);

  int ndims_ = 0;
  NodeId num_nodes_ = 0;
  std::array<int, kMaxDims> extents_{};
  std::array<bool, kMaxDims> torus_{};
  std::array<NodeId, kMaxDims> strides_{};
  std::array<double, kMaxDims> capacity_{};
  std::vector<int> extent_vec_;
  std::vector<bool> torus_vec_;
};

/// Parses `4x4x2` into extents; throws InputError naming `what` on failure.
std::vector<int> parse_extents(std::string_view text, std::string_view what);

}  // namespace rankmap::topology
