// Building the dense node geometry of an allocation.
#include "node_geometry.hpp"

namespace rankmap::mapping {

using topology::Direction;

NodeGeometry::NodeGeometry(const topology::Allocation& alloc) : grid_(alloc.grid()), nd_(grid_.ndims()) {
  const int n = alloc.num_nodes();
  const detail::NodeLookup dense(alloc);
  coords_.resize(n);
  neighbors_.assign(static_cast<std::size_t>(n) * nd_ * 2, -1);
  for (int i = 0; i < n; ++i) {
    const NodeId node = alloc.node(i);
    coords_[i] = grid_.coords_of(node);
    for (int d = 0; d < nd_; ++d) {
      if (grid_.extent(d) < 2) continue;
      for (const Direction dir : {Direction::plus, Direction::minus}) {
        const NodeId next = grid_.neighbor(node, d, dir);
        if (next >= 0) neighbors_[(static_cast<std::size_t>(i) * nd_ + d) * 2 + static_cast<int>(dir)] = dense(next);
      }
    }
  }
}

}  // namespace rankmap::mapping
