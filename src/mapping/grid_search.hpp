// Grid geometry for the greedy mappers: centrality, weighted centres, rings of nodes at one hop
// distance, and a grid-node to dense-node lookup.
#pragma once

#include <rankmap/topology/allocation.hpp>

#include <algorithm>
#include <span>
#include <unordered_map>
#include <vector>

namespace rankmap::mapping::detail {

/// A point of the grid with a weight: a mapped neighbour's node, weighted by bytes.
struct Anchor {
  topology::Coords coords;
  double weight;
};

/// Hop distance between two coordinate vectors of `grid`.
int hops_between(const topology::Grid& grid, const topology::Coords& a, const topology::Coords& b);
/// sum of weight * hops from `x` to every anchor.
double weighted_hops(const topology::Grid& grid, const topology::Coords& x, std::span<const Anchor> anchors);

/// A point minimising weighted_hops over the whole grid. Hop distance is a sum over dimensions
/// and on a line or a ring a weighted sum of distances is minimal at one of the points, so each
/// coordinate is chosen among the anchors' (the heaviest 32 anchors, to bound the cost).
topology::Coords weighted_center(const topology::Grid& grid, std::span<const Anchor> anchors);

/// For every allocated node (dense index), the sum of its hop distances to all allocated nodes.
/// Per dimension the sums are prefix sums over a histogram: O(nodes * dims + sum of extents).
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
