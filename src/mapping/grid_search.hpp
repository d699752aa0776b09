// Grid geometry for the greedy mappers: centrality, weighted centres, rings of nodes at one hop
// distance, and a grid-node to dense-node lookup.
#pragma once

#include <rankmap/topology/allocation.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace rankmap::mapping::detail {

/// A point of the grid with a weight: a mapped neighbour's node, weighted by bytes.
struct Anchor {
  topology::Coords coords;
  double weight;
  int node = -1;  ///< the dense index of that node (what the search off grids uses)
};

/// sum of weight * hops from a point to a set of anchors, and a point where it is least.
///
/// Hop distance is a sum over dimensions, so the cost is too. When the extents are small compared
/// with the anchors, each dimension gets a table of its cost at every coordinate (prefix sums over
/// the anchors' histogram, O(extent)), a point costs one lookup per dimension, and the centre is
/// exact. Otherwise each point is summed over the anchors, and the centre takes each coordinate
/// from the heaviest 32 anchors' (on a line or a ring a weighted sum of distances is least at one
/// of the points).
class AnchorCost {
 public:
  explicit AnchorCost(const topology::Grid& grid) : grid_(grid) {}
  /// Starts over with these anchors, which must stay alive until the next reset.
  void reset(std::span<const Anchor> anchors);
  double operator()(const topology::Coords& x) const;
  const topology::Coords& center() const noexcept { return center_; }
  double center_cost() const noexcept { return center_cost_; }
  double total_weight() const noexcept { return total_weight_; }

 private:
  void reset_tables();
  void reset_direct();

  const topology::Grid& grid_;
  std::span<const Anchor> anchors_;
  bool tabled_ = false;
  std::vector<std::vector<double>> table_;  ///< per dimension, cost at each coordinate
  std::vector<double> histogram_, count_, sum_;
  topology::Coords center_{};
  double center_cost_ = 0;
  double total_weight_ = 0;
};

/// For every allocated node (dense index), the sum of its hop distances to all allocated nodes.
/// Per dimension the sums are prefix sums over a histogram: O(nodes * dims + sum of extents).
/// Off grids: Network::hops_to_all.
std::vector<double> total_hops_to_all(const topology::Allocation& alloc);

/// Dense node index of a grid node, or -1: a table when the grid is small, a hash map otherwise.
class NodeLookup {
 public:
  explicit NodeLookup(const topology::Allocation& alloc);
  int operator()(NodeId node) const {
    if (!table_.empty()) return table_[static_cast<std::size_t>(node)];
    const auto it = map_.find(node);
    return it == map_.end() ? -1 : it->second;
  }

 private:
  std::vector<int> table_;
  std::unordered_map<NodeId, int> map_;
};

/// The offsets of the grid points within a few hops of a centre, ring by ring, enumerated once:
/// walking a cached ring is a loop instead of RingWalker's recursion. Rings on a torus are the same
/// around every node; on a mesh the offsets reach the farthest border and are clipped when walked.
class RingOffsets {
 public:
  /// Caches whole rings while the total stays within `max_points` (nothing if the grid is too
  /// large to build the offsets' grid).
  RingOffsets(const topology::Grid& grid, std::size_t max_points);
  /// Rings 0..radii()-1 are cached.
  int radii() const noexcept { return static_cast<int>(ring_begin_.size()) - 1; }
  /// Calls visit(node, coords) for each node at distance r < radii() from `center`, in the same
  /// order as RingWalker, until visit returns false; returns false if stopped that way.
  template <typename Visit>
  bool walk(const topology::Coords& center, int r, Visit&& visit) const;

 private:
  using Offset = std::array<std::int16_t, topology::kMaxDims>;
  const topology::Grid& grid_;
  std::vector<Offset> offsets_;
  std::vector<std::size_t> ring_begin_;
};

template <typename Visit>
bool RingOffsets::walk(const topology::Coords& center, int r, Visit&& visit) const {
  const int n = grid_.ndims();
  topology::Coords c{};
  for (std::size_t i = ring_begin_[r]; i < ring_begin_[r + 1]; ++i) {
    NodeId node = 0;
    bool inside = true;
    for (int d = 0; d < n && inside; ++d) {
      const int k = grid_.extent(d);
      int x = center[d] + offsets_[i][d];
      if (grid_.is_torus(d)) x = x >= k ? x - k : x < 0 ? x + k : x;
      else inside = x >= 0 && x < k;
      c[d] = x;
      node += x * grid_.stride(d);
    }
    if (inside && !visit(node, static_cast<const topology::Coords&>(c))) return false;
  }
  return true;
}

/// Enumerates the grid nodes at exactly hop distance r from a centre, in a fixed order.
class RingWalker {
 public:
  RingWalker(const topology::Grid& grid, const topology::Coords& center);
  /// Calls visit(node, coords) for each node at distance r until visit returns false.
  /// Returns false if it was stopped that way.
  template <typename Visit>
  bool walk(int r, Visit&& visit) {
    return r <= reach_[0] && step(0, r, 0, visit);
  }

 private:
  template <typename Visit>
  bool step(int d, int remaining, NodeId node, Visit& visit);

  const topology::Grid& grid_;
  topology::Coords center_;
  topology::Coords current_{};
  std::vector<int> reach_;  ///< reach_[d]: the farthest any node is from the centre along dims d..n-1
};

template <typename Visit>
bool RingWalker::step(int d, int remaining, NodeId node, Visit& visit) {
  const int n = grid_.ndims();
  if (d == n) return remaining != 0 || visit(node, static_cast<const topology::Coords&>(current_));
  if (remaining > reach_[d]) return true;
  const int k = grid_.extent(d);
  const bool torus = grid_.is_torus(d);
  // Dimensions d+1.. can absorb at most reach_[d + 1] of the remaining distance.
  const int lowest = std::max(0, remaining - reach_[d + 1]);
  const int highest = std::min(remaining, reach_[d] - reach_[d + 1]);
  for (int a = lowest; a <= highest; ++a) {
    for (int sign : {1, -1}) {
      if (a == 0 && sign < 0) continue;
      int c = center_[d] + sign * a;
      if (torus) {
        if (2 * a > k || (2 * a == k && sign < 0)) continue;  // beyond half a ring, or the same tie node twice
        c = (c % k + k) % k;
      } else if (c < 0 || c >= k) {
        continue;
      }
      current_[d] = c;
      if (!step(d + 1, remaining - a, node + c * grid_.stride(d), visit)) return false;
    }
  }
  return true;
}

}  // namespace rankmap::mapping::detail
