// Orientations of a block: the rotations and reflections that map its box onto itself.
#pragma once

#include "block_tree.hpp"

#include <rankmap/topology/grid.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace rankmap::rahtm {

/// Local coordinate p of a box goes to q with q[perm[d]] = flip bit d set ? len[d] - 1 - p[d] : p[d].
struct Orientation {
  std::array<std::int8_t, topology::kMaxDims> perm{};
  std::uint32_t flip = 0;
};

/// Every orientation of `box` that keeps the links inside it: dimensions are exchanged only
/// with dimensions of the same length, capacity and wrap-around, and any dimension longer than 1
/// may be reflected. For a 2-ary n-cube these are its 2^n n! automorphisms. The identity comes
/// first; at most `limit` are returned (a 2x2x2x2x2x2 box alone has 46,080).
std::vector<Orientation> box_orientations(const Box& box, const topology::Grid& grid, std::size_t limit);

/// The image of every cell of the box (cells numbered row-major over the box, dimension 0 slowest).
std::vector<int> cell_permutation(const Box& box, int ndims, const Orientation& orientation);

/// Row-major cell index of a grid node inside a box, and back.
int cell_of(const Box& box, int ndims, const topology::Coords& coords);
topology::Coords coords_of_cell(const Box& box, int ndims, int cell);

}  // namespace rankmap::rahtm
