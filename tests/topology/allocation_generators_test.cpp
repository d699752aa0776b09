// Generated allocations: fragmented node sets as a busy scheduler gives them, and regular boxes.
#include <rankmap/topology/allocation_generators.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <unordered_set>

namespace rankmap::topology {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

/// Connected components of the nodes, joined by grid links (torus wrap-around included).
int components(const Grid& grid, const std::vector<NodeId>& nodes) {
  std::unordered_set<NodeId> unvisited(nodes.begin(), nodes.end());
  int count = 0;
  while (!unvisited.empty()) {
    ++count;
    std::vector<NodeId> stack{*unvisited.begin()};
    unvisited.erase(stack.back());
    while (!stack.empty()) {
      const NodeId n = stack.back();
      stack.pop_back();
      for (int d = 0; d < grid.ndims(); ++d)
        for (Direction dir : {Direction::plus, Direction::minus}) {
          const NodeId m = grid.neighbor(n, d, dir);
          if (m >= 0 && unvisited.erase(m)) stack.push_back(m);
        }
    }
  }
  return count;
}

/// The largest extent of a component along dimension d, over all components: how long its lines are.
int longest_run(const Grid& grid, const std::vector<NodeId>& nodes, int d) {
  const std::set<NodeId> set(nodes.begin(), nodes.end());
  int best = 0;
  for (NodeId n : nodes) {
    int run = 1;
    for (NodeId m = grid.neighbor(n, d, Direction::plus); m >= 0 && m != n && set.count(m) && run < grid.extent(d);
         m = grid.neighbor(m, d, Direction::plus))
      ++run;
    best = std::max(best, run);
  }
  return best;
}

TEST(FragmentedNodes, SeveralPiecesOfDistinctNodes) {
  const Grid grid = Grid::parse("torus:16x16x16");
  int fragmented = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto nodes = fragmented_nodes(grid, 512, seed);
    ASSERT_EQ(nodes.size(), 512u);
    EXPECT_EQ(std::set<NodeId>(nodes.begin(), nodes.end()).size(), 512u) << "seed " << seed;
    fragmented += components(grid, nodes) >= 2;
    // Lines along the scheduler's fastest dimension: some run spans the whole torus ring.
    EXPECT_EQ(longest_run(grid, nodes, 2), 16) << "seed " << seed;
  }
  // A job can land in one big hole now and then, but a busy machine mostly splits it.
  EXPECT_GE(fragmented, 8);
}

TEST(FragmentedNodes, ReproducibleBySeed) {
  const Grid grid = Grid::parse("torus:12x8x10");
  EXPECT_EQ(fragmented_nodes(grid, 100, 5), fragmented_nodes(grid, 100, 5));
  EXPECT_NE(fragmented_nodes(grid, 100, 5), fragmented_nodes(grid, 100, 6));
}

TEST(FragmentedNodes, ConsecutiveSchedulerNodesAreMostlyNeighbours) {
  // Within a piece the scheduler's serpentine order moves one hop at a time.
  const Grid grid = Grid::parse("mesh:8x8x8");
  const auto nodes = fragmented_nodes(grid, 200, 3);
  int one_hop = 0;
  for (std::size_t k = 1; k < nodes.size(); ++k) one_hop += grid.hops(nodes[k - 1], nodes[k]) == 1;
  EXPECT_GT(one_hop, 150);
}

TEST(FragmentedNodes, WholeMachineIsTheSerpentineWalk) {
  // Odd and even extents on a mesh: every step of the scheduler's node list is one hop.
  const Grid grid = Grid::parse("mesh:3x4x5");
  const auto nodes = fragmented_nodes(grid, 60, 1);
  EXPECT_EQ(std::set<NodeId>(nodes.begin(), nodes.end()).size(), 60u);
  EXPECT_EQ(nodes.front(), 0);
  for (std::size_t k = 1; k < nodes.size(); ++k) EXPECT_EQ(grid.hops(nodes[k - 1], nodes[k]), 1) << k;
}

TEST(FragmentedNodes, BadCounts) {
  const Grid grid = Grid::parse("torus:4x4x4");
  EXPECT_THAT(
      [&] {
        try {
          fragmented_nodes(grid, 65, 1);
        } catch (const InputError& e) {
          return std::string(e.what());
        }
        return std::string();
      }(),
      HasSubstr("cannot take 65 of the 64 nodes"));
  EXPECT_THROW(fragmented_nodes(grid, 0, 1), InputError);
}

TEST(RegularNodes, BoxInRowMajorOrder) {
  const Grid grid = Grid::parse("mesh:4x4");
  const int extents[] = {2, 3};
  const int origin[] = {1, 1};
  // Rows 1..2, columns 1..3: nodes 5 6 7 9 10 11.
  EXPECT_THAT(regular_nodes(grid, extents, origin), ElementsAre(5, 6, 7, 9, 10, 11));
  EXPECT_THAT(regular_nodes(grid, extents, {}), ElementsAre(0, 1, 2, 4, 5, 6));
}

TEST(RegularNodes, WrapsOnTorusButNotOnMesh) {
  const int extents[] = {1, 3};
  const int origin[] = {0, 3};
  EXPECT_THAT(regular_nodes(Grid::parse("torus:4x4"), extents, origin), ElementsAre(3, 0, 1));
  EXPECT_THROW(regular_nodes(Grid::parse("mesh:4x4"), extents, origin), InputError);
  const int too_big[] = {5, 1};
  EXPECT_THROW(regular_nodes(Grid::parse("torus:4x4"), too_big, {}), InputError);
  const int wrong_rank[] = {2};
  EXPECT_THROW(regular_nodes(Grid::parse("torus:4x4"), wrong_rank, {}), InputError);
}

}  // namespace
}  // namespace rankmap::topology
