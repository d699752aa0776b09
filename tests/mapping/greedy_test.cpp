// mahd, emahd, gge and rcm on instances whose best placement is known.
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include "factories.hpp"

#include <gtest/gtest.h>

namespace rankmap::mapping {
namespace {

using topology::Allocation;
using topology::Grid;

Mapping run(std::string_view chain, const graph::CommGraph& g, const Allocation& a, MapOptions options = {}) {
  return run_chain(chain, core_algorithms(), g, a, options);
}

double mcl(const graph::CommGraph& g, const Allocation& a, const Mapping& m, std::string_view routing = "adaptive") {
  return metrics::max_channel_load(g, a, m, *topology::make_routing_model(a.grid(), routing));
}

TEST(Mahd, RingOnARingTorusReachesMclOne) {
  // Every task ends up next to both ring neighbours: each channel carries one byte.
  const Allocation a = Allocation::full(Grid::parse("torus:16"), 1);
  const auto g = testing::ring_graph(16);
  const Mapping start = testing::random_permutation(16, 3);  // launch order must not matter
  std::vector<graph::Edge> relabelled;
  for (const graph::Edge& e : g.edges()) relabelled.push_back({start[e.src], start[e.dst], e.weight});
  const auto shuffled = graph::CommGraph::from_edges(16, relabelled);
  EXPECT_DOUBLE_EQ(mcl(g, a, run("mahd", g, a)), 1);
  EXPECT_DOUBLE_EQ(mcl(shuffled, a, run("mahd", shuffled, a)), 1);
}

TEST(Mahd, RingWithFourSlotsPerNodeIsTiledIntoBlocks) {
  // 32 tasks on torus:8 with ppn 4: concentration cuts the ring into 8 blocks of 4, mahd lays
  // the blocks round the ring, and only one byte each way crosses each link.
  const Allocation a = Allocation::full(Grid::parse("torus:8"), 4);
  const auto g = testing::ring_graph(32);
  EXPECT_DOUBLE_EQ(mcl(g, a, run("mahd", g, a)), 1);
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(g, a, run("mahd", g, a)), 16);  // 8 block boundaries x 2 directions
}

TEST(Mahd, StarCentreGoesOnTheMostCentralNode) {
  // star_graph(5) on mesh:5: the centre (task 0, the busiest) on node 2, the leaves at 1 and 3
  // hops: hop-bytes 2 x (1 + 1 + 2 + 2) = 12, the least possible.
  const Allocation a = Allocation::full(Grid::parse("mesh:5"), 1);
  const auto g = testing::star_graph(5);
  for (const char* algo : {"mahd", "gge", "emahd"}) {
    SCOPED_TRACE(algo);
    const Mapping m = run(algo, g, a);
    EXPECT_EQ(m[0], 2);
    EXPECT_DOUBLE_EQ(metrics::hop_bytes(g, a, m), 12);
  }
}

TEST(Mahd, StencilOnAMatchingTorusIsEmbeddedWithUnitDilation) {
  // A periodic 4x4 stencil on torus:4x4: mahd follows the grid, every edge one hop.
  const Allocation a = Allocation::full(Grid::parse("torus:4x4"), 1);
  const auto g = testing::stencil_graph({4, 4}, true);
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(g, a, run("mahd", g, a)), g.total_weight());
}

TEST(Mahd, PeriodicStencilWithTwoTasksPerNodeKeepsEveryEdgeWithinOneHop) {
  // halo3d's graph in the SMPI benchmark: 16x8x8 periodic on torus:8x8x8, 2 per node. The by_id
  // variant embeds it exactly (from_centre alone gave 2.3 times the hop-bytes).
  const Allocation a = Allocation::full(Grid::parse("torus:8x8x8"), 2);
  const auto g = testing::stencil_graph({16, 8, 8}, true);
  const Mapping m = run("mahd", g, a);
  for (const graph::Edge& e : g.edges())
    EXPECT_LE(a.grid().hops(a.node_of_slot(m[e.src]), a.node_of_slot(m[e.dst])), 1);
}

TEST(Mahd, PathOnALineIsLaidStraight) {
  // path_graph(8) on mesh:8. by_id starts from task 1 (the first of the busiest) on node 3, and the
  // path must fold back (hop-bytes 26). from_centre starts from task 3, nearest the path's middle,
  // and, newest first, runs 4..7 one way and 2..0 the other: every edge one hop, hop-bytes 2 x 7.
  const Allocation a = Allocation::full(Grid::parse("mesh:8"), 1);
  const auto g = testing::path_graph(8);
  const Mapping m = run("mahd", g, a);
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(g, a, m), 14);
  EXPECT_DOUBLE_EQ(mcl(g, a, m), 1);
}

TEST(Mahd, DirectAndConcentratedBothBeatTheRandomLaunchOrder) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x4"), 4);
  const auto g = testing::stencil_graph({16, 16}, true);
  const Mapping random = testing::random_permutation(256, 5);
  const double random_hb = metrics::hop_bytes(g, a, random);
  EXPECT_LT(metrics::hop_bytes(g, a, run("mahd", g, a)), random_hb / 2);
  EXPECT_LT(metrics::hop_bytes(g, a, run("mahd:direct", g, a)), random_hb / 2);
}

TEST(Emahd, NeverWorseThanMahdAndDeterministic) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x2"), 1);
  const auto g = testing::random_graph(32, 3, 11);
  MapOptions options;
  options.time_budget_ms = 1e6;
  const Mapping e = run("emahd", g, a, options);
  EXPECT_LE(mcl(g, a, e), mcl(g, a, run("mahd", g, a)));
  options.threads = 3;
  EXPECT_EQ(run("emahd", g, a, options), e);  // ties go to the earlier start, whatever the threads
}

// A run the deadline cuts is not scored (a scoring can take longer than the whole budget); the
// first run, cut before it placed anything, is the answer, its tasks in the launcher's order.
TEST(Emahd, ReturnsItsFirstRunUnscoredWhenTheBudgetEndsFirst) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x2"), 1);
  const auto g = testing::random_graph(32, 3, 11);
  MapOptions options;
  options.time_budget_ms = 1e6;
  ASSERT_NE(run("emahd", g, a, options), identity_mapping(32));
  options.time_budget_ms = 1e-6;
  EXPECT_EQ(run("emahd", g, a, options), identity_mapping(32));
}

TEST(Gge, EachTaskLandsNextToItsLastPlacedNeighbour) {
  // A path on mesh:8: gge starts with task 1 (ends have less traffic) on node 3, the most central
  // node with the lowest index, then places 0 on node 4, then walks 2, 3, 4 down to nodes 2, 1, 0;
  // task 5 must jump to node 5, and 6, 7 follow on 6, 7.
  const Allocation a = Allocation::full(Grid::parse("mesh:8"), 1);
  EXPECT_EQ(run("gge", testing::path_graph(8), a), (Mapping{4, 3, 2, 1, 0, 5, 6, 7}));
}

TEST(Rcm, ScrambledPathIsStraightenedAlongTheLine) {
  // Reverse Cuthill-McKee recovers the order of a path whatever its labels, and the Hilbert order
  // of a line is the line: every edge one hop, hop-bytes 2 (n - 1).
  const Allocation a = Allocation::full(Grid::parse("mesh:20"), 1);
  const Mapping label = testing::random_permutation(20, 7);
  std::vector<graph::Edge> e;
  for (TaskId i = 0; i + 1 < 20; ++i) testing::add_pair(e, label[i], label[i + 1], 1);
  const auto g = graph::CommGraph::from_edges(20, e);
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(g, a, run("rcm", g, a)), 38);
}

}  // namespace
}  // namespace rankmap::mapping
