// Orientations of boxes: the automorphisms of 2-ary n-cubes, and the subgroups that keep link types.
#include "rahtm/orientation.hpp"

#include <gtest/gtest.h>

#include <set>

namespace rankmap::rahtm {
namespace {

Box whole(const topology::Grid& grid) {
  Box b;
  for (int d = 0; d < grid.ndims(); ++d) b.len[d] = grid.extent(d);
  return b;
}

class CubeOrientations : public ::testing::TestWithParam<int> {};

TEST_P(CubeOrientations, AreTheTwoToTheNTimesNFactorialAutomorphisms) {
  const int n = GetParam();
  std::string spec = "mesh:2";
  for (int i = 1; i < n; ++i) spec += "x2";
  const topology::Grid grid = topology::Grid::parse(spec);
  const Box box = whole(grid);
  const auto orientations = box_orientations(box, grid, 100000);
  int expected = 1 << n;  // 2^n reflections times n! permutations
  for (int k = 2; k <= n; ++k) expected *= k;
  ASSERT_EQ(static_cast<int>(orientations.size()), expected);
  std::set<std::vector<int>> distinct;
  const int cells = 1 << n;
  for (const Orientation& o : orientations) {
    const std::vector<int> image = cell_permutation(box, grid.ndims(), o);
    distinct.insert(image);
    // An automorphism of the n-cube maps neighbours (cells one bit apart) to neighbours.
    std::set<int> seen(image.begin(), image.end());
    EXPECT_EQ(static_cast<int>(seen.size()), cells);
    for (int u = 0; u < cells; ++u)
      for (int v = 0; v < cells; ++v) {
        if (std::popcount(static_cast<unsigned>(u ^ v)) == 1) {
          EXPECT_EQ(std::popcount(static_cast<unsigned>(image[u] ^ image[v])), 1);
        }
      }
  }
  EXPECT_EQ(distinct.size(), orientations.size());
  EXPECT_EQ(cell_permutation(box, grid.ndims(), orientations.front()), [&] {
    std::vector<int> id(cells);
    for (int c = 0; c < cells; ++c) id[c] = c;
    return id;
  }()) << "the identity comes first";
}

INSTANTIATE_TEST_SUITE_P(Dims, CubeOrientations, ::testing::Values(1, 2, 3, 4));

TEST(Orientations, OnlyExchangeDimensionsWithTheSameLinks) {
  // torus:4x4x2: dimensions 0 and 1 are whole rings of 4, dimension 2 a double-capacity pair,
  // so 2 permutations x 2^3 reflections.
  const topology::Grid grid = topology::Grid::parse("torus:4x4x2");
  EXPECT_EQ(box_orientations(whole(grid), grid, 1000).size(), 16u);
  // A 2x2x1 corner of torus:4x4x4: both long dimensions are sub-rings, exchangeable: 2 x 2^2.
  const topology::Grid big = topology::Grid::parse("torus:4x4x4");
  Box corner;
  corner.len = {2, 2, 1};
  EXPECT_EQ(box_orientations(corner, big, 1000).size(), 8u);
  // The limit caps the enumeration (the identity still first).
  EXPECT_EQ(box_orientations(whole(grid), grid, 3).size(), 3u);
}

TEST(Orientations, CellNumberingIsRowMajorInsideTheBox) {
  const topology::Grid grid = topology::Grid::parse("torus:8x8");
  Box box;
  box.lo = {2, 4};
  box.len = {2, 4};
  // Cell 5 is local (1, 1), the grid coordinates (3, 5).
  const topology::Coords c = coords_of_cell(box, 2, 5);
  EXPECT_EQ(c[0], 3);
  EXPECT_EQ(c[1], 5);
  EXPECT_EQ(cell_of(box, 2, c), 5);
  // Reflecting dimension 1 sends local (1, 1) to (1, 2): cell 6.
  Orientation flip;
  flip.perm[0] = 0, flip.perm[1] = 1;
  flip.flip = 1u << 1;
  EXPECT_EQ(cell_permutation(box, 2, flip)[5], 6);
}

}  // namespace
}  // namespace rankmap::rahtm
