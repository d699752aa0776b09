// The mappers' view of a network that is not a grid: hop distances between allocated nodes, the
// nodes near one another, and the greedy's search for the cheapest free node, group by group.
#pragma once

#include "grid_search.hpp"

#include <rankmap/topology/allocation.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <span>
#include <vector>

namespace rankmap::mapping::detail {

/// Hop distances between allocated nodes by dense index, as the swap searches need them: how
/// much farther a node gets from a task that moves. From coordinates on a grid, by Network::hops
/// otherwise. The searches measure this for every edge of every swap they try (a quarter of
/// auto's time on the training set), so on a grid the coordinates are packed 2 bytes each, and a
/// torus axis takes min(delta, extent - delta) without a test of its kind (a mesh axis wraps at
/// an extent no delta reaches).
class DenseHops {
 public:
  explicit DenseHops(const topology::Allocation& alloc);
  /// hops(to, x) - hops(from, x).
  int change(int from, int to, int x) const {
    if (coords_.empty()) return network_hops(to, x) - network_hops(from, x);
    const std::int16_t* pf = at(from);
    const std::int16_t* pt = at(to);
    const std::int16_t* px = at(x);
    int h = 0;
    for (int d = 0; d < ndims_; ++d) h += axis_hops(d, pt[d], px[d]) - axis_hops(d, pf[d], px[d]);
    return h;
  }

 private:
  const std::int16_t* at(int node) const {
    return coords_.data() + static_cast<std::size_t>(node) * static_cast<std::size_t>(ndims_);
  }
  int axis_hops(int d, int a, int b) const {
    const int delta = std::abs(a - b);
    return std::min(delta, wrap_[d] - delta);
  }
  int network_hops(int a, int b) const { return alloc_.network().hops(alloc_.node(a), alloc_.node(b)); }

  const topology::Allocation& alloc_;
  int ndims_ = 0;
  std::array<int, topology::kMaxDims> wrap_{};  ///< the extent on a torus axis, twice it on a mesh axis
  std::vector<std::int16_t> coords_;            ///< ndims_ per node, node-major; empty off grids
};

/// Off grids, the allocated nodes near each allocated node: those of its group of the lowest level
/// (router, leaf switch, chassis, ...) that spans at least 4 nodes of the network. The swap searches
/// take partners there, as they take them one hop away on a grid.
class NearNodes {
 public:
  explicit NearNodes(const topology::Allocation& alloc);
  /// Dense indices, `node` included, ascending.
  std::span<const int> of(int node) const {
    const int g = group_of_[node];
    return {members_.data() + begin_[g], static_cast<std::size_t>(begin_[g + 1] - begin_[g])};
  }

 private:
  std::vector<int> group_of_;
  std::vector<int> begin_;
  std::vector<int> members_;
};

/// The allocated nodes (dense indices) in the order of their network node ids: on a fat-tree or
/// dragonfly, nodes of one switch, then of one group, come together.
std::vector<int> network_node_order(const topology::Allocation& alloc);

/// The greedy's node search off grids. A node costs the sum over the anchors of weight x hops; the
/// search starts at the anchor of least cost (the centre) and visits the allocated nodes of its
/// groups level by level (its node, its router or leaf switch, ...). A node outside the centre's
/// group of level l is at least Network::min_hops_beyond(l) hops from it, so costs at least
/// W min_hops_beyond(l) - cost(centre) (W the anchors' weight): the search stops when that is no
/// less than the best found. When a level would visit more network nodes than twice the open
/// nodes, the open nodes are scanned instead.
class LevelSearch {
 public:
  LevelSearch(const topology::Allocation& alloc, const NodeLookup& lookup) : alloc_(alloc), lookup_(lookup) {}

  /// The node among those `fits` accepts with the least cost, ties to the fewest hops from the
  /// centre, then the lowest index; -1 if none fits. `open` lists every node that may fit.
  template <typename Fits>
  int best(std::span<const Anchor> anchors, Fits&& fits, std::span<const int> open) const;

 private:
  double cost(std::span<const Anchor> anchors, int node) const;
  int centre(std::span<const Anchor> anchors) const;

  const topology::Allocation& alloc_;
  const NodeLookup& lookup_;
};

template <typename Fits>
int LevelSearch::best(std::span<const Anchor> anchors, Fits&& fits, std::span<const int> open) const {
  const topology::Network& network = alloc_.network();
  const int c = centre(anchors);
  const NodeId c_id = alloc_.node(c);
  const double c_cost = cost(anchors, c);
  double weight = 0;
  for (const Anchor& a : anchors) weight += a.weight;
  double best_cost = std::numeric_limits<double>::infinity();
  int best_hops = 0, best_node = -1;
  const auto consider = [&](int node) {
    if (!fits(node)) return;
    const double x = cost(anchors, node);
    if (x > best_cost) return;
    const int h = network.hops(alloc_.node(node), c_id);
    if (x < best_cost || h < best_hops || (h == best_hops && node < best_node)) best_cost = x, best_hops = h, best_node = node;
  };
  const std::size_t visit_limit = 2 * open.size() + 64;
  NodeId lo = c_id, hi = c_id;  // the centre's group of the level before (none before level 0)
  for (int level = 0; level <= network.num_levels(); ++level) {
    if (level > 0 && best_node >= 0 && weight * network.min_hops_beyond(level - 1) - c_cost >= best_cost) break;
    const NodeId size = network.level_size(level);
    const NodeId first = c_id / size * size, last = first + size;
    if (static_cast<std::size_t>(size - (hi - lo)) > visit_limit) {
      for (int node : open) consider(node);
      return best_node;
    }
    for (NodeId id = first; id < last; ++id) {
      if (id == lo) id = hi;
      if (id >= last) break;
      const int node = lookup_(id);
      if (node >= 0) consider(node);
    }
    lo = first;
    hi = last;
  }
  return best_node;
}

}  // namespace rankmap::mapping::detail
