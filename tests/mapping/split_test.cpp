// Tests of split: valid permutations everywhere, and exact answers on grids where they are obvious.
#include "factories.hpp"

#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/dilation.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include <gtest/gtest.h>

namespace rankmap::mapping {

Mapping map_split(const graph::CommGraph&, const topology::Allocation&, const MapOptions&);

namespace {

using topology::Allocation;
using topology::Grid;

TEST(Split, TwoDimensionalStencilOnMatchingMeshHasDilationOne) {
  const auto graph = testing::grid_graph(8, 8);
  const Allocation alloc = Allocation::full(Grid::parse("mesh:8x8"), 1);
  const auto m = map_split(graph, alloc, MapOptions{});
  ASSERT_TRUE(is_permutation(m));
  EXPECT_EQ(metrics::dilation(graph, alloc, m).max, 1);
}

TEST(Split, StencilWithFourTasksPerNodeKeepsTwoByTwoBlocksTogether) {
  // 16x16 tasks on 8x8 nodes with ppn 4: each node holds a 2x2 block. An edge leaves its node when it
  // crosses one of the 7 block boundaries between columns (or rows), 16 edges each: 2 * 7 * 16 = 224
  // undirected edges, one hop each, counted in both directions: hop-bytes 448.
  const auto graph = testing::grid_graph(16, 16);
  const Allocation alloc = Allocation::full(Grid::parse("mesh:8x8"), 4);
  const auto m = map_split(graph, alloc, MapOptions{});
  ASSERT_TRUE(is_permutation(m));
  EXPECT_EQ(metrics::dilation(graph, alloc, m).max, 1);
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(graph, alloc, m), 448);
}

TEST(Split, PathOnRingTorusIsLaidOutInOrder) {
  // A 6-task path on a 6-node ring: every edge one hop, hop-bytes = 2 * 5.
  const auto graph = testing::path_graph(6);
  const Allocation alloc = Allocation::full(Grid::parse("torus:6"), 1);
  const auto m = map_split(graph, alloc, MapOptions{});
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(graph, alloc, m), 10);
}

TEST(Split, DisconnectedPiecesAreCutApartFirst) {
  // Two 2x2 blocks of a 8x8 mesh, far apart; a 2x4 stencil must put each 2x2 half in one block:
  // the only long edges are the 2 pairs crossing the middle of the stencil.
  const Grid grid = Grid::parse("mesh:8x8");
  const std::vector<NodeId> nodes = {0, 1, 8, 9, 54, 55, 62, 63};
  const Allocation alloc = Allocation::of_nodes(grid, nodes, 1);
  const auto graph = testing::grid_graph(2, 4);
  const auto m = map_split(graph, alloc, MapOptions{});
  ASSERT_TRUE(is_permutation(m));
  int far_edges = 0;
  for (TaskId t = 0; t < 8; ++t)
    for (TaskId u : graph.out_neighbors(t))
      far_edges += grid.hops(alloc.node_of_slot(m[t]), alloc.node_of_slot(m[u])) > 1;
  EXPECT_EQ(far_edges, 4);
}

}  // namespace
}  // namespace rankmap::mapping
