// Building the dense node geometry of an allocation.
#include "node_geometry.hpp"

#include <algorithm>

namespace rankmap::mapping {

using topology::Direction;

NodeGeometry::NodeGeometry(const topology::Allocation& alloc) : grid_(alloc.grid()), nd_(grid_.ndims()) {
  const int n = alloc.num_nodes();
  for (int d = 0; d < nd_; ++d) {
    extents_.push_back(grid_.extent(d));
    torus_.push_back(grid_.is_torus(d));
  }
  coords_.resize(static_cast<std::size_t>(n) * nd_);
  neighbors_.assign(static_cast<std::size_t>(n) * nd_ * 2, -1);
  std::vector<std::pair<NodeId, int>> sorted(n);
  for (int i = 0; i < n; ++i) sorted[i] = {alloc.node(i), i};
  std::sort(sorted.begin(), sorted.end());
  const auto dense = [&](NodeId node) {
    const auto it = std::lower_bound(sorted.begin(), sorted.end(), std::pair<NodeId, int>{node, -1});
    return it != sorted.end() && it->first == node ? it->second : -1;
  };
  for (int i = 0; i < n; ++i) {
    const NodeId node = alloc.node(i);
    for (int d = 0; d < nd_; ++d) {
      coords_[static_cast<std::size_t>(i) * nd_ + d] = grid_.coord(node, d);
      if (grid_.extent(d) < 2) continue;
      for (const Direction dir : {Direction::plus, Direction::minus}) {
        const NodeId next = grid_.neighbor(node, d, dir);
        if (next >= 0) neighbors_[(static_cast<std::size_t>(i) * nd_ + d) * 2 + static_cast<int>(dir)] = dense(next);
      }
    }
  }
}

}  // namespace rankmap::mapping
