// The allocated nodes as a small geometric graph: coordinates, allocated neighbours, hop distances.
#pragma once

#include "grid_search.hpp"

#include <rankmap/topology/allocation.hpp>

#include <vector>

namespace rankmap::mapping {

/// Dense-indexed view of an allocation's nodes (index i is alloc.node(i)) for the inner loops of
/// mappers: coordinates without divisions, and each node's grid neighbours that are also allocated.
class NodeGeometry {
 public:
  explicit NodeGeometry(const topology::Allocation& alloc);

  const topology::Grid& grid() const { return grid_; }
  int ndims() const { return nd_; }
  int num_nodes() const { return static_cast<int>(coords_.size()); }
  int coord(int node, int d) const { return coords_[node][d]; }
  /// The allocated node one step along d, or -1 when that grid node is not allocated (or absent).
  int neighbor(int node, int d, topology::Direction dir) const {
    return neighbors_[(static_cast<std::size_t>(node) * nd_ + d) * 2 + static_cast<int>(dir)];
  }
  /// A torus of extent 2 has one link of double capacity between its two nodes: it is counted
  /// from coordinate 0 in the + direction only, so each link is seen once.
  bool counts_link(int node, int d, topology::Direction dir) const {
    return !(grid_.is_torus(d) && grid_.extent(d) == 2 &&
             (dir == topology::Direction::minus || coord(node, d) == 1));
  }
  /// Minimal hop count between two allocated nodes, as Grid::hops.
  int hops(int a, int b) const { return grid_.hops(coords_[a], coords_[b]); }

 private:
  const topology::Grid& grid_;
  int nd_;
  std::vector<topology::Coords> coords_;
  std::vector<int> neighbors_;
};

}  // namespace rankmap::mapping
