// Concentration: recognising stencils, choosing tiles, and groups of exactly a node's size.
#include <rankmap/mapping/concentration.hpp>

#include "factories.hpp"
#include "task_grid.hpp"

#include <gtest/gtest.h>

#include <map>
#include <thread>

namespace rankmap::mapping {
namespace {

using topology::Allocation;
using topology::Grid;

std::map<int, int> group_counts(const Concentration& c) {
  std::map<int, int> counts;
  for (int g : c.group_of_task) ++counts[g];
  return counts;
}

TEST(TaskGrid, StencilsAreRecognised) {
  EXPECT_EQ(detect_task_grid(testing::stencil_graph({4, 6}, true)), (std::vector<int>{4, 6}));
  EXPECT_EQ(detect_task_grid(testing::stencil_graph({4, 6}, false)), (std::vector<int>{4, 6}));
  EXPECT_EQ(detect_task_grid(testing::stencil_graph({2, 3, 4}, true)), (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(detect_task_grid(testing::path_graph(10)), std::vector<int>{10});
  EXPECT_EQ(detect_task_grid(testing::ring_graph(12)), std::vector<int>{12});
}

TEST(TaskGrid, AHypercubeIsAGridOfTwosInEveryDimension) {
  // Recursive doubling's partners differ in one bit: six strides, each a neighbour step of extent 2.
  std::vector<graph::Edge> edges;
  for (TaskId t = 0; t < 64; ++t)
    for (TaskId bit = 1; bit < 64; bit *= 2) edges.push_back({t, t ^ bit, 1});
  EXPECT_EQ(detect_task_grid(graph::CommGraph::from_edges(64, edges)), (std::vector<int>{2, 2, 2, 2, 2, 2}));
}

/// A 4x4x4x4x4 torus stencil (1,024 tasks, 10,240 edges) with `extra` edges t -> t + 2, which are
/// off its grid: more than 8 factorisations are validated, so the edges are grouped by difference.
graph::CommGraph torus_stencil_with_steps_of_two(TaskId extra) {
  std::vector<graph::Edge> edges;
  for (TaskId t = 0; t < 1024; ++t)
    for (TaskId stride = 1; stride < 1024; stride *= 4) {
      const TaskId c = t / stride % 4;
      for (const TaskId to : {(c + 1) % 4, (c + 3) % 4}) edges.push_back({t, t + (to - c) * stride, 1});
    }
  for (TaskId t = 0; t < extra; ++t) edges.push_back({t * 8, t * 8 + 2, 1});
  return graph::CommGraph::from_edges(1024, edges);
}

TEST(TaskGrid, OffGridBytesUpToTheToleranceKeepTheGrid) {
  // 100 of 10,340 edges (0.97%) off the grid are tolerated.
  EXPECT_EQ(detect_task_grid(torus_stencil_with_steps_of_two(100)), (std::vector<int>{4, 4, 4, 4, 4}));
  // 110 of 10,350 (1.06%) are not; the fastest dimension split in two holds them all, with a
  // larger spread (a step that wraps moves along both halves).
  EXPECT_EQ(detect_task_grid(torus_stencil_with_steps_of_two(110)), (std::vector<int>{4, 4, 4, 4, 2, 2}));
}

TEST(TaskGrid, OtherGraphsAreNot) {
  EXPECT_TRUE(detect_task_grid(testing::random_graph(64, 4, 1)).empty());
  // An all-to-all of 256 tasks is a stencil on 2x2x...x2 with diagonals, but denser than any
  // stencil worth its validation (255 edges per task).
  std::vector<graph::Edge> all_to_all;
  for (TaskId a = 0; a < 256; ++a)
    for (TaskId b = 0; b < 256; ++b)
      if (a != b) all_to_all.push_back({a, b, 1});
  EXPECT_TRUE(detect_task_grid(graph::CommGraph::from_edges(256, all_to_all)).empty());
  EXPECT_TRUE(detect_task_grid(testing::star_graph(16)).empty());
  EXPECT_TRUE(detect_task_grid(graph::CommGraph::from_edges(9, {})).empty());
}

TEST(TaskGrid, AMemoAnswersForItsOwnGraphOnly) {
  const graph::CommGraph grid = testing::stencil_graph({4, 6}, true);
  const graph::CommGraph ring = testing::ring_graph(24);
  const graph::CommGraph random = testing::random_graph(64, 4, 1);
  const detail::TaskGridMemo outer(ring);
  {
    const detail::TaskGridMemo inner(grid);
    EXPECT_EQ(detect_task_grid(grid), (std::vector<int>{4, 6}));
    EXPECT_EQ(detect_task_grid(grid), (std::vector<int>{4, 6}));  // from memory
    EXPECT_EQ(detect_task_grid(ring), std::vector<int>{24});       // the outer memo's graph
    EXPECT_TRUE(detect_task_grid(random).empty());                 // no memo's graph
  }
  EXPECT_EQ(detect_task_grid(ring), std::vector<int>{24});
  EXPECT_EQ(detect_task_grid(grid), (std::vector<int>{4, 6}));  // its memo is gone, detected again
}

TEST(TaskGrid, TileFollowsTheHeavyDimension) {
  // 8x8 grid, tile of 4. Equal traffic: 2x2 cuts 1/2 + 1/2 per byte, 4x1 or 1x4 cut 1/4 + 1.
  EXPECT_EQ(choose_tile(std::vector<int>{8, 8}, std::vector<double>{1, 1}, 4), (std::vector<int>{2, 2}));
  // 100 times more traffic along dimension 0: 4x1 cuts 100/4 + 1 = 26 against 50.5 for 2x2.
  EXPECT_EQ(choose_tile(std::vector<int>{8, 8}, std::vector<double>{100, 1}, 4), (std::vector<int>{4, 1}));
  // A whole dimension inside the tile cuts nothing along it: 8x1 tiles of a 8x5 grid.
  EXPECT_EQ(choose_tile(std::vector<int>{8, 5}, std::vector<double>{1, 1}, 8), (std::vector<int>{8, 1}));
  EXPECT_TRUE(choose_tile(std::vector<int>{5, 5}, std::vector<double>{1, 1}, 4).empty());
}

TEST(TaskGrid, BytesAlongADimensionCountEveryEdgeThatMovesAlongIt) {
  // A 3x4 grid, row-major: task 5 is (1, 1). An edge moving along both dimensions counts for both.
  const std::vector<graph::Edge> edges{{5, 6, 2}, {5, 9, 3}, {5, 10, 7}, {0, 11, 1}, {4, 4 + 4, 5}};
  const auto g = graph::CommGraph::from_edges(12, edges);
  EXPECT_EQ(detail::bytes_along_dimensions(g, std::vector<int>{3, 4}), (std::vector<double>{3 + 7 + 1 + 5, 2 + 7 + 1}));
}

TEST(Concentration, StencilIsTiled) {
  // 8x8 periodic stencil on 16 nodes of 4 slots: 2x2 tiles, each group four tasks, the group graph
  // a periodic 4x4 stencil with 2 bytes each way between neighbouring tiles.
  const Allocation a = Allocation::full(Grid::parse("torus:4x4"), 4);
  const Concentration c = concentrate(testing::stencil_graph({8, 8}, true), a, 1);
  EXPECT_EQ(c.method, ConcentrationMethod::tiling);
  EXPECT_EQ(c.tile, (std::vector<int>{2, 2}));
  EXPECT_EQ(c.group_of_task[0], c.group_of_task[9]);   // (0,0) and (1,1)
  EXPECT_NE(c.group_of_task[0], c.group_of_task[2]);   // (0,0) and (0,2)
  for (const auto& [g, n] : group_counts(c)) EXPECT_EQ(n, 4);
  EXPECT_EQ(c.group_graph.num_edges(), 64);  // 16 tiles x 4 neighbours
  EXPECT_DOUBLE_EQ(c.group_graph.total_weight(), 128);
}

TEST(Concentration, RandomGraphGroupsHaveExactlyTheNodeSizes) {
  // Nodes of 3, 3, 3, 3 and 1 slots (the last node truncated): METIS, then repaired to exact sizes.
  const Allocation a = Allocation::full(Grid::parse("torus:5"), 3).first_slots(13);
  const Concentration c = concentrate(testing::random_graph(13, 4, 2), a, 7);
  EXPECT_EQ(c.method, ConcentrationMethod::metis);
  EXPECT_EQ(c.group_size, (std::vector<int>{3, 3, 3, 3, 1}));
  const auto counts = group_counts(c);
  for (int g = 0; g < 5; ++g) EXPECT_EQ(counts.at(g), c.group_size[g]);
  // Groups placed on nodes in order give a permutation.
  const Mapping m = expand_groups(c, a, std::vector<int>{0, 1, 2, 3, 4});
  EXPECT_TRUE(is_permutation(m));
}

// GKlib keeps one random number generator for the process: before the partitions took turns, two
// concentrations at once (emahd next to another member of auto) each got another grouping on every run.
TEST(Concentration, TwoAtOnceGroupAsEachAlone) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4"), 4);
  const auto g = testing::random_graph(64, 4, 9);
  const std::vector<int> alone = concentrate(g, a, 5).group_of_task;
  for (int round = 0; round < 20; ++round) {
    std::vector<int> other;
    std::thread t([&] { other = concentrate(g, a, 5).group_of_task; });
    const std::vector<int> here = concentrate(g, a, 5).group_of_task;
    t.join();
    ASSERT_EQ(here, alone) << "round " << round;
    ASSERT_EQ(other, alone) << "round " << round;
  }
}

// METIS cannot be stopped: a bisection starts only when the deadline leaves what it may take at the
// slowest rate measured (some 60 ms here), so 30 ms leave the launcher's grouping, where a first cut
// used to start and run past them, and 10 s the partition.
TEST(PartitionExact, ACutThatWouldOutlastTheDeadlineIsNotStarted) {
  const auto g = testing::random_graph(16384, 6, 3);
  const std::vector<int> sizes(256, 64);
  const Deadline short_deadline(30);
  const std::vector<int> part = partition_exact(g, sizes, 1, &short_deadline);
  for (TaskId t = 0; t < g.num_tasks(); ++t) ASSERT_EQ(part[t], t / 64) << "task " << t;
  const Deadline long_deadline(10000);
  EXPECT_NE(partition_exact(g, sizes, 1, &long_deadline), part);
}

TEST(Concentration, MetisKeepsCliquesTogether) {
  // Four 4-cliques joined in a ring by single light edges, labels interleaved: every group must
  // be one clique, so only the 4 light edges (both ways) cross groups.
  const auto g = testing::clique_ring(4, 4, 100, 1, true);
  const Allocation a = Allocation::full(Grid::parse("mesh:2x2"), 4);
  const Concentration c = concentrate(g, a, 3);
  EXPECT_DOUBLE_EQ(c.group_graph.total_weight(), 8);
}

TEST(Concentration, RefusesMismatchedSizes) {
  EXPECT_THROW(concentrate(testing::path_graph(5), Allocation::full(Grid::parse("mesh:2"), 2), 1), InputError);
}

}  // namespace
}  // namespace rankmap::mapping
