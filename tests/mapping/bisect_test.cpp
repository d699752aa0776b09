// Tests of bisect: exact embeddings it must find, pieces of the allocation kept apart, and its limits.
#include "factories.hpp"

#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/dilation.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include <gtest/gtest.h>

namespace rankmap::mapping {

Mapping map_bisect(const graph::CommGraph&, const topology::Allocation&, const MapOptions&);

namespace {

using topology::Allocation;
using topology::Grid;

/// NAS CG's pattern on 64 ranks as MapLib recorded it: 8 groups of 8 consecutive ranks, each rank
/// exchanging with the ranks that differ from it in one of the 3 low bits (a 3-cube per group).
graph::CommGraph hypercube_groups() {
  std::vector<graph::Edge> edges;
  for (TaskId g = 0; g < 8; ++g)
    for (TaskId r = 0; r < 8; ++r)
      for (TaskId bit : {1, 2, 4}) edges.push_back({8 * g + r, 8 * g + (r ^ bit), 1});
  return graph::CommGraph::from_edges(64, edges);
}

TEST(Bisect, EmbedsEveryThreeCubeInATwoByTwoByTwoBox) {
  // Each 3-cube fits a 2x2x2 box of the 4x4x4 grid with every edge one hop: dilation 1, hop-bytes
  // 64 tasks * 3 partners. The launcher's order puts a group on a 1x2x4 slab, with edges of 2 hops.
  const auto graph = hypercube_groups();
  for (const char* grid : {"mesh:4x4x4", "torus:4x4x4"}) {
    const Allocation alloc = Allocation::full(Grid::parse(grid), 1);
    ASSERT_GT(metrics::dilation(graph, alloc, identity_mapping(64)).max, 1) << grid;
    const Mapping m = map_bisect(graph, alloc, MapOptions{});
    ASSERT_TRUE(is_permutation(m));
    EXPECT_EQ(metrics::dilation(graph, alloc, m).max, 1) << grid;
    EXPECT_DOUBLE_EQ(metrics::hop_bytes(graph, alloc, m), 64 * 3) << grid;
  }
}

TEST(Bisect, KeepsEachComponentOnOnePieceOfADisconnectedAllocation) {
  // Two rings of 8 tasks, interleaved in rank order (task t in ring t % 2), on two 2x2 blocks in
  // opposite corners of an 8x8 mesh with 2 slots per node: each ring must sit on one block.
  std::vector<graph::Edge> edges;
  for (TaskId t = 0; t < 16; ++t) edges.push_back({t, (t + 2) % 16, 1});
  const auto graph = graph::CommGraph::from_edges(16, edges).symmetrized();
  const Grid grid = Grid::parse("mesh:8x8");
  const Allocation alloc = Allocation::of_nodes(grid, std::vector<NodeId>{0, 1, 8, 9, 54, 55, 62, 63}, 2);
  const Mapping m = map_bisect(graph, alloc, MapOptions{});
  ASSERT_TRUE(is_permutation(m));
  const auto block = [&](TaskId t) { return grid.coord(alloc.node_of_slot(m[t]), 0) < 4; };
  for (TaskId t = 0; t < 16; ++t) EXPECT_EQ(block(t), block(t % 2)) << "task " << t;
}

TEST(Bisect, FillsNodesWithTwoByTwoBlocksOfAStencil) {
  // 16x16 stencil on 8x8 nodes with 4 slots each: 2x2 blocks per node give the least hop-bytes,
  // 2 * 7 * 16 undirected edges of one hop in both directions (448), and dilation 1.
  const auto graph = testing::grid_graph(16, 16);
  const Allocation alloc = Allocation::full(Grid::parse("mesh:8x8"), 4);
  const Mapping m = map_bisect(graph, alloc, MapOptions{});
  ASSERT_TRUE(is_permutation(m));
  EXPECT_EQ(metrics::dilation(graph, alloc, m).max, 1);
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(graph, alloc, m), 448);
}

TEST(Bisect, StartsFromTheCallersMappingWhenItIsAlreadyExact) {
  // A 4x8 stencil laid out exactly on mesh:4x8 by a shuffled labelling: with that mapping as the
  // start, bisect's ordered candidate is the exact layout, and no split can cut fewer bytes.
  const auto base = testing::grid_graph(4, 8);
  const auto relabel = testing::random_permutation(32, 5);
  std::vector<graph::Edge> edges;
  for (const graph::Edge& e : base.edges()) edges.push_back({relabel[e.src], relabel[e.dst], e.weight});
  const auto graph = graph::CommGraph::from_edges(32, edges);
  Mapping start(32);
  for (TaskId t = 0; t < 32; ++t) start[relabel[t]] = t;
  const Allocation alloc = Allocation::full(Grid::parse("mesh:4x8"), 1);
  MapOptions options;
  options.initial = &start;
  const Mapping m = map_bisect(graph, alloc, options);
  ASSERT_TRUE(is_permutation(m));
  EXPECT_EQ(metrics::dilation(graph, alloc, m).max, 1);
}

TEST(Bisect, OutOfTimeStillReturnsAPermutation) {
  const auto graph = testing::random_graph(500, 4, 3);
  const Allocation alloc = Allocation::full(Grid::parse("torus:5x10x10"), 1);
  MapOptions options;
  options.time_budget_ms = 0;
  EXPECT_TRUE(is_permutation(map_bisect(graph, alloc, options)));
}

TEST(Bisect, ABudgetThatCoversEverySplitGivesTheUnboundedMapping) {
  // Each split gets the share of the time left that its tasks are of the splits left; when that
  // share covers it, nothing is cut short, so a minute is as good as no limit.
  const auto graph = testing::random_graph(500, 4, 3);
  const Allocation alloc = Allocation::full(Grid::parse("torus:5x10x10"), 1);
  MapOptions minute, unbounded;
  minute.time_budget_ms = 60'000;
  unbounded.time_budget_ms = 1e12;
  EXPECT_EQ(map_bisect(graph, alloc, minute), map_bisect(graph, alloc, unbounded));
}

TEST(Bisect, OutOfTimeKeepsWhereItsStartPutEachTask) {
  // With no time to score a split, each piece's tasks go to the half their start mapping put them
  // on, so the levels left keep the start's structure rather than the tasks' id order (which here
  // would give 11,580 hop-bytes: a scrambled start is kept as it is, good or bad).
  const auto graph = testing::stencil_graph({10, 10, 5}, true);
  const Allocation alloc = Allocation::full(Grid::parse("torus:5x10x10"), 1);
  Mapping start(500);
  for (TaskId t = 0; t < 500; ++t) start[t] = (t * 7) % 500;
  MapOptions options;
  options.time_budget_ms = 0;
  options.initial = &start;
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(graph, alloc, map_bisect(graph, alloc, options)),
                   metrics::hop_bytes(graph, alloc, start));
}

TEST(Bisect, RefusesAParameter) {
  MapOptions options;
  options.parameter = "3";
  EXPECT_THROW(map_bisect(testing::path_graph(4), Allocation::full(Grid::parse("mesh:4"), 1), options), InputError);
}

}  // namespace
}  // namespace rankmap::mapping
