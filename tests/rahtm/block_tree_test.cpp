// The block tree: split orders, cube capacities, uneven and fragmented allocations.
#include "rahtm/block_tree.hpp"

#include <gtest/gtest.h>

namespace rankmap::rahtm {
namespace {

using topology::Allocation;
using topology::Grid;

std::vector<std::vector<int>> split_sequence(const BlockTree& tree) {
  std::vector<std::vector<int>> seq;
  for (int b = tree.root(); !tree.block(b).is_leaf(); b = tree.block(b).child_of_vertex[0])
    seq.push_back(tree.block(b).split_dims);
  return seq;
}

TEST(BlockTree, BgqPartitionHalvesTheLongDimensionsFirstOrTheShortOne) {
  const Allocation alloc = Allocation::full(Grid::parse("torus:4x4x4x4x2"), 1);
  const BlockTree bottom(alloc, SplitPolicy{4, false});
  EXPECT_EQ(split_sequence(bottom), (std::vector<std::vector<int>>{{0, 1, 2, 3}, {0, 1, 2, 3}, {4}}));
  const BlockTree top(alloc, SplitPolicy{4, true});
  EXPECT_EQ(split_sequence(top), (std::vector<std::vector<int>>{{4}, {0, 1, 2, 3}, {0, 1, 2, 3}}));
  EXPECT_TRUE(bottom.is_regular());
  EXPECT_TRUE(top.is_regular());
  EXPECT_EQ(bottom.leaves().size(), 512u);
}

TEST(BlockTree, RootCapacitiesCountTheWrapAroundLinks) {
  // torus:4x4x2 is split in all three dimensions at the root into 2x2x1 boxes. The halves of a
  // ring of 4 meet over two links per row (the middle one and the wrap-around), and a box's face
  // across dimension 0 has 2x1 = 2 cells: capacity 2 x 2 = 4. Across dimension 2 (a torus of
  // extent 2, one link of capacity 2 per node) the face has 2x2 = 4 cells: 4 x 2 = 8.
  const Allocation alloc = Allocation::full(Grid::parse("torus:4x4x2"), 1);
  const BlockTree tree(alloc, SplitPolicy{4, false});
  const Block& root = tree.block(tree.root());
  ASSERT_EQ(root.split_dims, (std::vector<int>{0, 1, 2}));
  for (int v = 0; v < 8; ++v) {
    EXPECT_EQ(root.capacity[v * 3 + 0], 4);
    EXPECT_EQ(root.capacity[v * 3 + 1], 4);
    EXPECT_EQ(root.capacity[v * 3 + 2], 8);
  }
  // One level down the 2x2x1 boxes split dims 0 and 1 inside a ring of 4: single links.
  const Block& child = tree.block(root.child_of_vertex[0]);
  ASSERT_EQ(child.split_dims, (std::vector<int>{0, 1}));
  EXPECT_EQ(child.capacity[0], 1);
}

TEST(BlockTree, NonPowerOfTwoSidesAreCutIntoEvenPieces) {
  // A side of 6 is cut 4 + 2, a side of 3 is cut 2 + 1.
  const Allocation alloc = Allocation::full(Grid::parse("mesh:6x3"), 2);
  const BlockTree tree(alloc, SplitPolicy{});
  const Block& root = tree.block(tree.root());
  ASSERT_EQ(root.split_dims, (std::vector<int>{0, 1}));
  EXPECT_EQ(root.vertex_box[0].len[0], 4);
  EXPECT_EQ(root.vertex_box[1].len[0], 2);  // vertex bit 0 is dimension 0
  EXPECT_EQ(root.vertex_box[0].len[1], 2);
  EXPECT_EQ(root.vertex_box[2].len[1], 1);
  EXPECT_EQ(tree.block(root.child_of_vertex[0]).slots, 4 * 2 * 2);
  EXPECT_EQ(tree.block(root.child_of_vertex[3]).slots, 2 * 1 * 2);
  EXPECT_FALSE(tree.is_regular());
  EXPECT_EQ(tree.leaves().size(), 18u);
}

TEST(BlockTree, FragmentedAllocationsDropEmptyBoxes) {
  // Nodes 0 and 15 of mesh:4x4: opposite corners, so the root keeps two of its four quadrants.
  const Grid grid = Grid::parse("mesh:4x4");
  const std::vector<NodeId> nodes = {0, 15};
  const BlockTree tree(Allocation::of_nodes(grid, nodes, 3), SplitPolicy{});
  const Block& root = tree.block(tree.root());
  EXPECT_EQ(root.child_of_vertex[0] >= 0, true);
  EXPECT_EQ(root.child_of_vertex[1], -1);
  EXPECT_EQ(root.child_of_vertex[2], -1);
  EXPECT_EQ(root.child_of_vertex[3] >= 0, true);
  // Each quadrant holds a single node, so it is a leaf at once.
  EXPECT_TRUE(tree.block(root.child_of_vertex[0]).is_leaf());
  EXPECT_EQ(tree.cube_of(tree.root()).vertex_size, (std::vector<std::int64_t>{3, 0, 0, 3}));
  EXPECT_FALSE(tree.is_regular());
}

}  // namespace
}  // namespace rankmap::rahtm
