// Tile-shape search and task-grid inference on stencils whose cuts are counted by hand.
#include "rahtm/tiling.hpp"

#include <rankmap/graph/patterns.hpp>

#include "factories.hpp"

#include <gtest/gtest.h>

namespace rankmap::rahtm {
namespace {

// An 8x8 grid (non-periodic) with 3 bytes per horizontal edge and 1 per vertical one, each way.
graph::CommGraph anisotropic_grid() {
  std::vector<graph::Edge> e;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) {
      if (c + 1 < 8) testing::add_pair(e, r * 8 + c, r * 8 + c + 1, 3);
      if (r + 1 < 8) testing::add_pair(e, r * 8 + c, (r + 1) * 8 + c, 1);
    }
  return graph::CommGraph::from_edges(64, e);
}

TEST(Tiling, KeepsTheHeavyDirectionInsideTiles) {
  // Tiles of 4: 1x4 cuts 8 rows x 1 boundary x 3 x 2 directions = 48 horizontally plus all
  // 7 x 8 vertical edges x 2 = 112, 160 in all; 2x2 cuts 8 x 3 x 3 x 2 + 3 x 8 x 1 x 2 = 192;
  // 4x1 cuts 8 x 7 x 3 x 2 + 1 x 8 x 2 = 352. So 1x4 wins.
  const int grid[] = {8, 8};
  const std::int64_t sizes[] = {4, 4};
  const auto tiling = tile_levels(anisotropic_grid(), grid, sizes);
  ASSERT_TRUE(tiling);
  EXPECT_EQ(tiling->tiles[0], (std::vector<int>{1, 4}));
  EXPECT_DOUBLE_EQ(tiling->cuts[0], 160);
  // Level 2 groups the 8x2 grid of 1x4 tiles by 4. Neighbouring tiles exchange 3 bytes each way
  // across a row and 4 x 1 up or down. 2x2 cuts 3 row boundaries x 2 columns x 4 x 2 directions
  // = 48; 4x1 cuts all 8 rows x 3 x 2 = 48 plus 1 boundary x 2 x 4 x 2 = 16, 64 in all.
  EXPECT_EQ(tiling->tiles[1], (std::vector<int>{2, 2}));
  EXPECT_DOUBLE_EQ(tiling->cuts[1], 48);
}

TEST(Tiling, ClustersAreRowMajorOverTheTileGrid) {
  Tiling t;
  t.task_grid = {4, 4};
  t.tiles = {{2, 2}};
  const std::vector<int> clusters = tiling_clusters(t, 1);
  EXPECT_EQ(clusters, (std::vector<int>{0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3}));
  EXPECT_EQ(tiling_clusters(t, 0)[5], 5);
}

TEST(Tiling, InfersTheProcessGridOfAStencil) {
  // A periodic 16x8 stencil seen as 128 tasks: tiles of 8 cut least as 4x2 or 2x4 of the 2D grid
  // (perimeter 12 edges), which no 1D or 3D view of the numbering beats.
  const auto g = graph::make_pattern({.name = "stencil2d", .dims = {16, 8}, .periodic = true});
  const std::int64_t sizes[] = {8, 16};
  const auto tiling = infer_tiling(g, sizes);
  ASSERT_TRUE(tiling);
  EXPECT_EQ(tiling->task_grid, (std::vector<int>{16, 8}));
  // 16 tiles of 8 tasks, each with 2 x (2 + 4) = 12 boundary edges; an edge joins two tiles and
  // carries a byte each way, so the cut is 16 x 12 / 2 x 2 = 192 bytes.
  EXPECT_DOUBLE_EQ(tiling->cuts[0], 192);
}

TEST(Tiling, FailsWhenNoTileDivides) {
  const int grid[] = {3, 5};
  const std::int64_t sizes[] = {2};
  EXPECT_FALSE(tile_levels(testing::path_graph(15), grid, sizes));
}

}  // namespace
}  // namespace rankmap::rahtm
