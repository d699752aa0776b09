// Tests of the channel-load pictures: colours, the hottest channel, and the structure of the SVG.
#include "load_svg.hpp"

#include <gtest/gtest.h>
#include <rankmap/topology/grid.hpp>

#include <numeric>
#include <regex>
#include <string>
#include <vector>

namespace rankmap::tools {
namespace {

using topology::Direction;
using topology::Grid;

long count(const std::string& text, const std::string& needle) {
  long n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

std::vector<double> zero_loads(const Grid& grid) {
  return std::vector<double>(static_cast<std::size_t>(grid.num_channel_slots()), 0.0);
}

std::vector<NodeId> all_nodes(const Grid& grid) {
  std::vector<NodeId> nodes(static_cast<std::size_t>(grid.num_nodes()));
  std::iota(nodes.begin(), nodes.end(), 0);
  return nodes;
}

TEST(LoadColour, ZeroIsGreyAndTheScaleEndsAreTheRampEnds) {
  EXPECT_EQ(load_colour(0, 10), "#d9d9d9");
  EXPECT_EQ(load_colour(5, 0), "#d9d9d9");
  EXPECT_EQ(load_colour(10, 10), "#800026");  // the last YlOrRd class
  EXPECT_EQ(load_colour(20, 10), "#800026");  // clamped
  // Half the scale is anchor 4 of 0..8 exactly.
  EXPECT_EQ(load_colour(5, 10), "#fd8d3c");
  // A tiny load is the first anchor.
  EXPECT_EQ(load_colour(1e-9, 10), "#ffffcc");
}

TEST(HottestChannel, FirstRealChannelWithTheLargestLoad) {
  const Grid grid = Grid::parse("mesh:3");
  auto loads = zero_loads(grid);
  EXPECT_EQ(hottest_channel(grid, loads), -1);
  loads[grid.channel(1, 0, Direction::plus)] = 5;
  loads[grid.channel(0, 0, Direction::plus)] = 5;
  // Node 2 has no plus channel on a mesh: its slot is ignored even with the largest value.
  loads[grid.channel(2, 0, Direction::plus)] = 9;
  EXPECT_EQ(hottest_channel(grid, loads), grid.channel(0, 0, Direction::plus));
}

TEST(RenderLoadsSvg, TwoDimensionalTorusDrawsEveryChannelOnceAndWrapsAsTwoStubs) {
  const Grid grid = Grid::parse("torus:4x4");
  auto loads = zero_loads(grid);
  const ChannelId hot = grid.channel(grid.node_at(std::vector<int>{1, 1}), 1, Direction::plus);
  loads[hot] = 3;
  const std::string svg = render_loads_svg(grid, all_nodes(grid), std::vector<LoadView>{{"identity", "", loads}}, "h");
  // 16 nodes x 2 dims x 2 directions = 64 channels; per dimension 4 lines have 2 wrapping
  // channels each (coordinate 3 going +, coordinate 0 going -), 16 in all, drawn as two stubs.
  EXPECT_EQ(count(svg, "data-channel="), 64 + 16);
  EXPECT_EQ(count(svg, "class=\"panel\""), 1);
  EXPECT_EQ(count(svg, "class=\"hottest\""), 1);
  EXPECT_NE(svg.find("data-channel=\"" + std::to_string(hot) + "\" class=\"hottest\""), std::string::npos);
  EXPECT_EQ(count(svg, "<circle"), 16);
  // Node (1,1) and channel dim 1 +: the caption names it.
  EXPECT_NE(svg.find("hottest: (1,1) dim 1+, load 3"), std::string::npos);
}

TEST(RenderLoadsSvg, ThreeDimensionsGiveOnePanelPerPlaneAndSquaresForTheLeavingChannels) {
  const Grid grid = Grid::parse("mesh:3x2x2");
  const std::string svg =
      render_loads_svg(grid, std::vector<NodeId>{0}, std::vector<LoadView>{{"m", "", zero_loads(grid)}}, "h");
  EXPECT_EQ(count(svg, "class=\"panel\""), 3);
  // Dimension 0 channels of a 3x2x2 mesh: 4 lines x 2 links x 2 directions = 16 squares.
  EXPECT_EQ(count(svg, "width=\"6.0\" height=\"6.0\""), 16);
  // One allocated node is filled, the other 11 hollow.
  EXPECT_EQ(count(svg, "fill=\"#333333\""), 1);
  EXPECT_EQ(count(svg, "fill=\"#ffffff\" stroke=\"#777777\""), 11);
  EXPECT_NE(svg.find("no load on any channel"), std::string::npos);
}

TEST(RenderLoadsSvg, FiveDimensionsGiveAHistogramOfEveryRealChannel) {
  const Grid grid = Grid::parse("torus:2x2x2x2x2");
  auto a = zero_loads(grid);
  auto b = zero_loads(grid);
  a[grid.channel(0, 4, Direction::plus)] = 1;
  b[grid.channel(3, 2, Direction::plus)] = 4;
  const std::string svg =
      render_loads_svg(grid, all_nodes(grid), std::vector<LoadView>{{"a", "", a}, {"b", "", b}}, "h");
  EXPECT_EQ(count(svg, "class=\"histogram\""), 2);
  EXPECT_EQ(count(svg, "class=\"panel\""), 0);
  EXPECT_EQ(count(svg, "class=\"view\""), 2);
  // Extent 2 tori have only plus channels: 32 nodes x 5 = 160 per histogram.
  long channels = 0;
  const std::regex data_count("data-count=\"([0-9]+)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), data_count); it != std::sregex_iterator(); ++it)
    channels += std::stol((*it)[1]);
  EXPECT_EQ(channels, 2 * 160);
  EXPECT_EQ(count(svg, "class=\"hottest\""), 2);
}

TEST(RenderLoadsSvg, SideBySideViewsShareOneColourScale) {
  const Grid grid = Grid::parse("mesh:2x2");
  auto a = zero_loads(grid);
  auto b = zero_loads(grid);
  const ChannelId c = grid.channel(0, 1, Direction::plus);
  a[c] = 10;
  b[c] = 20;
  const std::string svg =
      render_loads_svg(grid, all_nodes(grid), std::vector<LoadView>{{"a", "", a}, {"b", "", b}}, "h");
  // The scale is 20, the larger maximum: view a's hottest channel is drawn mid-ramp, b's at the end.
  EXPECT_NE(svg.find("stroke=\"" + load_colour(10, 20) + "\" stroke-width=\"2.5\" data-channel=\"" +
                     std::to_string(c) + "\" class=\"hottest\""),
            std::string::npos);
  EXPECT_NE(svg.find("stroke=\"#800026\" stroke-width=\"2.5\" data-channel=\"" + std::to_string(c) +
                     "\" class=\"hottest\""),
            std::string::npos);
}

TEST(RenderLoadsSvg, EscapesTextAndRefusesLoadsOfAnotherGrid) {
  const Grid grid = Grid::parse("mesh:2x2");
  const std::string svg =
      render_loads_svg(grid, all_nodes(grid), std::vector<LoadView>{{"a<b & \"c\"", "", zero_loads(grid)}}, "x<y");
  EXPECT_NE(svg.find("a&lt;b &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_NE(svg.find(">x&lt;y<"), std::string::npos);
  EXPECT_EQ(svg.find("a<b"), std::string::npos);
  EXPECT_THROW(render_loads_svg(grid, {}, std::vector<LoadView>{{"short", "", {1.0, 2.0}}}, "h"), InputError);
}

}  // namespace
}  // namespace rankmap::tools
