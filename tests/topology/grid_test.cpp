// Grids: spec parsing, row-major node ids, shortest torus offsets, channels and neighbours.
#include <rankmap/topology/grid.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

namespace rankmap::topology {
namespace {

TEST(Grid, ParsesTorusMeshAndMixedSpecs) {
  EXPECT_EQ(Grid::parse("torus:4x4x4x4x2").to_string(), "torus:4x4x4x4x2");
  EXPECT_EQ(Grid::parse("mesh:8x8x16").to_string(), "mesh:8x8x16");
  const Grid g = Grid::parse("grid:4x3:torus=10");
  EXPECT_TRUE(g.is_torus(0));
  EXPECT_FALSE(g.is_torus(1));
  EXPECT_EQ(g.to_string(), "grid:4x3:torus=10");
  EXPECT_EQ(g.num_nodes(), 12);
}

TEST(Grid, RejectsMalformedSpecsWithTheirText) {
  for (const char* bad : {"torus", "torus:", "torus:4x", "torus:0x4", "cube:4", "grid:4x4", "grid:4x4:torus=1",
                          "torus:4x-1", "torus:1x1x1x1x1x1x1x1x1", "mesh:99999"}) {
    try {
      Grid::parse(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("topology"), std::string::npos) << e.what();
    }
  }
}

TEST(Grid, NodesAreRowMajorWithDimensionZeroSlowest) {
  const Grid g = Grid::parse("mesh:2x3x4");
  const int c[] = {1, 2, 3};
  EXPECT_EQ(g.node_at(c), 1 * 12 + 2 * 4 + 3);
  const Coords back = g.coords_of(23);
  EXPECT_EQ(back[0], 1);
  EXPECT_EQ(back[1], 2);
  EXPECT_EQ(back[2], 3);
}

TEST(Grid, OffsetsTakeTheShortWayAndTiesGoPlus) {
  const Grid g = Grid::parse("grid:6x6:torus=10");
  EXPECT_EQ(g.offset(0, 1, 0), 1);
  EXPECT_EQ(g.offset(0, 5, 0), -1);
  EXPECT_EQ(g.offset(1, 4, 0), 3);  // tie: k/2 = 3, goes +
  EXPECT_EQ(g.offset(4, 1, 0), 3);
  EXPECT_TRUE(g.is_tie(4, 1, 0));
  EXPECT_FALSE(g.is_tie(0, 1, 0));
  EXPECT_EQ(g.offset(0, 5, 1), 5);  // mesh never wraps
  EXPECT_FALSE(g.is_tie(0, 3, 1));
  EXPECT_EQ(g.hops(g.node_at(std::vector<int>{0, 0}), g.node_at(std::vector<int>{5, 5})), 1 + 5);
  EXPECT_EQ(g.diameter(), 3 + 5);
}

// hops() from coordinates takes no modulo; it must equal the sum of the offsets' magnitudes on
// every kind of dimension: extents 1 and 2, odd and even, ties, wrapped or not.
TEST(Grid, HopsEqualTheSumOfTheOffsetsMagnitudes) {
  for (auto spec : {"grid:1x2x3x4x5:torus=11111", "grid:1x2x3x4x5:torus=10101", "grid:6x2x5:torus=010"}) {
    const Grid g = Grid::parse(spec);
    for (NodeId a = 0; a < g.num_nodes(); ++a)
      for (NodeId b = 0; b < g.num_nodes(); ++b) {
        int expected = 0;
        for (int d = 0; d < g.ndims(); ++d) expected += std::abs(g.offset(g.coord(a, d), g.coord(b, d), d));
        ASSERT_EQ(g.hops(a, b), expected) << spec << ' ' << a << ' ' << b;
        ASSERT_EQ(g.hops(g.coords_of(a), g.coords_of(b)), expected) << spec << ' ' << a << ' ' << b;
      }
  }
}

TEST(Grid, TorusOfExtentTwoHasOneDoubleChannelPerDirection) {
  const Grid g = Grid::parse("torus:2");
  EXPECT_EQ(g.capacity(0), 2.0);
  EXPECT_FALSE(g.is_tie(0, 1, 0));
  EXPECT_EQ(g.offset(1, 0, 0), 1);
  EXPECT_TRUE(g.has_channel(g.channel(0, 0, Direction::plus)));
  EXPECT_FALSE(g.has_channel(g.channel(0, 0, Direction::minus)));
  EXPECT_EQ(g.num_channels(), 2);
  EXPECT_EQ(g.total_capacity(), 4.0);
  EXPECT_EQ(g.max_node_capacity(), 2.0);
}

TEST(Grid, CountsChannelsOfToriAndMeshes) {
  EXPECT_EQ(Grid::parse("torus:4").num_channels(), 8);
  EXPECT_EQ(Grid::parse("mesh:3").num_channels(), 4);
  EXPECT_EQ(Grid::parse("mesh:1x5").num_channels(), 8);
  EXPECT_EQ(Grid::parse("torus:4x4").num_channels(), 64);
  EXPECT_EQ(Grid::parse("mesh:2x2").num_channels(), 8);
  EXPECT_EQ(Grid::parse("mesh:2x2").max_node_capacity(), 2.0);
  // Every real channel is counted exactly once by has_channel as well.
  for (const char* spec : {"torus:4x2x3", "mesh:3x1x2", "grid:2x5:torus=01"}) {
    const Grid g = Grid::parse(spec);
    ChannelId real = 0;
    for (ChannelId c = 0; c < g.num_channel_slots(); ++c) real += g.has_channel(c);
    EXPECT_EQ(real, g.num_channels()) << spec;
  }
}

TEST(Grid, NeighborsWrapOnlyOnTori) {
  const Grid g = Grid::parse("grid:3x3:torus=10");
  const NodeId corner = g.node_at(std::vector<int>{0, 0});
  EXPECT_EQ(g.neighbor(corner, 0, Direction::minus), g.node_at(std::vector<int>{2, 0}));
  EXPECT_EQ(g.neighbor(corner, 1, Direction::minus), -1);
  EXPECT_EQ(g.neighbor(corner, 1, Direction::plus), g.node_at(std::vector<int>{0, 1}));
}

}  // namespace
}  // namespace rankmap::topology
