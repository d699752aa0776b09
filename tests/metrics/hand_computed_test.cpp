// Metrics on small instances whose values are worked out by hand in the comments.
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/dilation.hpp>
#include <rankmap/metrics/hop_bytes.hpp>
#include <rankmap/metrics/lower_bound.hpp>
#include <rankmap/metrics/quality.hpp>

#include "factories.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace rankmap::metrics {
namespace {

using topology::Allocation;
using topology::Grid;

// RAHTM's 2x2 example. Tasks 0 and 1 exchange 3 bytes each way, 2 and 3 exchange 2, every
// other pair 1. Nodes of mesh:2x2 are (0,0)=0, (0,1)=1, (1,0)=2, (1,1)=3.
graph::CommGraph rahtm_example() {
  std::vector<graph::Edge> e;
  testing::add_pair(e, 0, 1, 3);
  testing::add_pair(e, 2, 3, 2);
  for (auto [a, b] : {std::pair{0, 2}, {0, 3}, {1, 2}, {1, 3}}) testing::add_pair(e, a, b, 1);
  return graph::CommGraph::from_edges(4, e);
}

TEST(RahtmExample, AdjacentHeavyPairMinimisesHopBytes) {
  // Identity: the heavy pair is adjacent ((0,0)-(0,1)); hop-bytes = 2*(3+2) + 2*(1+2+2+1) = 22.
  // Channel (0,0)->(0,1) carries 0->1 (3), half of 0->3 and half of 2->1 (diagonals): MCL 4.
  const auto g = rahtm_example();
  const Allocation a = Allocation::full(Grid::parse("mesh:2x2"), 1);
  const std::vector<SlotId> adjacent = {0, 1, 2, 3};
  const auto adaptive = topology::make_routing_model(a.grid(), "adaptive");
  EXPECT_DOUBLE_EQ(hop_bytes(g, a, adjacent), 22);
  EXPECT_DOUBLE_EQ(max_channel_load(g, a, adjacent, *adaptive), 4);
}

TEST(RahtmExample, DiagonalHeavyPairMinimisesMclUnderAdaptive) {
  // Tasks 0,1 on the diagonal (0,0),(1,1): their 3 bytes split over two paths each way.
  // hop-bytes = 2*(2*3 + 2*2) + 2*(1+1+1+1) = 28, MCL = 1.5 + 1 + 1 = 3.5.
  const auto g = rahtm_example();
  const Allocation a = Allocation::full(Grid::parse("mesh:2x2"), 1);
  const std::vector<SlotId> diagonal = {0, 3, 1, 2};
  const auto adaptive = topology::make_routing_model(a.grid(), "adaptive");
  EXPECT_DOUBLE_EQ(hop_bytes(g, a, diagonal), 28);
  EXPECT_DOUBLE_EQ(max_channel_load(g, a, diagonal, *adaptive), 3.5);
}

TEST(RahtmExample, NoPlacementIsOptimalForBothObjectives) {
  const auto g = rahtm_example();
  const Allocation a = Allocation::full(Grid::parse("mesh:2x2"), 1);
  const auto adaptive = topology::make_routing_model(a.grid(), "adaptive");
  std::vector<SlotId> p = {0, 1, 2, 3};
  std::vector<std::pair<double, double>> scores;
  do scores.emplace_back(hop_bytes(g, a, p), max_channel_load(g, a, p, *adaptive));
  while (std::next_permutation(p.begin(), p.end()));
  double best_hb = 1e300, best_mcl = 1e300;
  for (auto [hb, mcl] : scores) best_hb = std::min(best_hb, hb), best_mcl = std::min(best_mcl, mcl);
  EXPECT_DOUBLE_EQ(best_hb, 22);
  EXPECT_DOUBLE_EQ(best_mcl, 3.5);
  for (auto [hb, mcl] : scores) EXPECT_FALSE(hb == best_hb && mcl == best_mcl);
}

TEST(Metrics, RingOnRingIsPerfect) {
  // A ring of 8 tasks on torus:8 in order: every edge is one hop, each channel carries 1 byte.
  std::vector<graph::Edge> e;
  for (TaskId i = 0; i < 8; ++i) testing::add_pair(e, i, (i + 1) % 8, 1);
  const auto g = graph::CommGraph::from_edges(8, e);
  const Allocation a = Allocation::full(Grid::parse("torus:8"), 1);
  const auto id = testing::random_permutation(1, 0);
  std::vector<SlotId> identity(8);
  std::iota(identity.begin(), identity.end(), 0);
  const Quality q = evaluate(g, a, identity);
  EXPECT_DOUBLE_EQ(q.hop_bytes, 16);
  EXPECT_DOUBLE_EQ(q.mcl_dor, 1);
  EXPECT_DOUBLE_EQ(q.mcl_adaptive, 1);
  EXPECT_DOUBLE_EQ(q.mcl_adaptive_hop, 1);
  EXPECT_DOUBLE_EQ(q.dilation.average, 1);
  EXPECT_EQ(q.dilation.max, 1);
  // 16 forced bytes over 16 channels: the bound is tight here.
  EXPECT_DOUBLE_EQ(q.mcl_lower_bound, 1);
}

TEST(Metrics, ReversedPairOnAMeshLine) {
  // Path 0-1-2 of weight 5 on mesh:3 placed as slots {2,0,1}: edges 0-1 two hops, 1-2 one hop.
  const auto g = testing::path_graph(3, 5);
  const Allocation a = Allocation::full(Grid::parse("mesh:3"), 1);
  const std::vector<SlotId> m = {2, 0, 1};
  EXPECT_DOUBLE_EQ(hop_bytes(g, a, m), 2 * (5 * 2 + 5 * 1));
  const Dilation d = dilation(g, a, m);
  EXPECT_DOUBLE_EQ(d.average, 1.5);
  EXPECT_EQ(d.max, 2);
  // Channel 1->2 (plus) carries 0->1 (task 0 at node 2? no: task 0 on node 2, task 1 on node 0):
  // 1->0 goes 0->1->2 (+), 0->1 goes 2->1->0 (-), 1->2 goes 0->1 (+), 2->1 goes 1->0 (-).
  // Channel 0->1 (+) carries 5 + 5 = 10, channel 1->0 (-) carries 10 too.
  const auto dor = topology::make_routing_model(a.grid(), "dor");
  EXPECT_DOUBLE_EQ(max_channel_load(g, a, m, *dor), 10);
}

TEST(Metrics, TasksSharingANodeCostNothing) {
  const auto g = testing::complete_graph(4, 7);
  const Allocation a = Allocation::full(Grid::parse("torus:4"), 4);  // 16 slots, tasks on node 0
  const Allocation one_node = a.first_slots(4);
  const std::vector<SlotId> m = {3, 1, 2, 0};
  EXPECT_DOUBLE_EQ(hop_bytes(g, one_node, m), 0);
  EXPECT_TRUE(node_flows(g, one_node, m).empty());
  EXPECT_DOUBLE_EQ(mcl_lower_bound(g, one_node), 0);
}

TEST(Metrics, CheckMappingNamesTheProblem) {
  const auto g = testing::path_graph(3);
  const Allocation a = Allocation::full(Grid::parse("mesh:3"), 1);
  EXPECT_THROW(check_mapping(g, a, std::vector<SlotId>{0, 1}), InputError);
  EXPECT_THROW(check_mapping(g, a, std::vector<SlotId>{0, 1, 3}), InputError);
  EXPECT_THROW(check_mapping(g, a, std::vector<SlotId>{0, 1, 1}), InputError);
  EXPECT_NO_THROW(check_mapping(g, a, std::vector<SlotId>{2, 1, 0}));
}

// On a grid hop-bytes look each node's coordinates up once; the total must be the one summed edge
// by edge with the network's hops, in the same order, bit for bit: scattered nodes, two slots each,
// a shuffled mapping and fractional bytes.
TEST(Metrics, HopBytesOnAGridEqualTheEdgeByEdgeSum) {
  const Grid grid = Grid::parse("grid:5x6x4:torus=101");
  const std::vector<NodeId> nodes = {97, 3, 60, 11, 118, 45, 0, 72, 33, 101, 19, 86};
  const Allocation alloc = Allocation::of_nodes(topology::Network(grid), nodes, 2);
  std::mt19937_64 rng(7);
  std::vector<graph::Edge> edges;
  for (int k = 0; k < 120; ++k)
    edges.push_back({static_cast<TaskId>(rng() % 24), static_cast<TaskId>(rng() % 24), static_cast<double>(rng() % 1000) / 7});
  const graph::CommGraph g = graph::CommGraph::from_edges(24, edges);
  const std::vector<SlotId> m = testing::random_permutation(24, 3);
  double expected = 0;
  for (TaskId t = 0; t < g.num_tasks(); ++t)
    for (std::size_t k = 0; k < g.out_neighbors(t).size(); ++k)
      expected += g.out_weights(t)[k] * grid.hops(alloc.node_of_slot(m[t]), alloc.node_of_slot(m[g.out_neighbors(t)[k]]));
  EXPECT_GT(expected, 0);
  EXPECT_EQ(hop_bytes(g, alloc, m), expected);
}

TEST(Metrics, LowerBoundSqueezesAStarThroughOneNode) {
  // A star of 9 tasks, 1 byte each way, on torus:3x3 ppn 1: task 0 sends 8 bytes through the
  // 4 channels of its node, so MCL >= 2; the spread bound is 16 bytes / 36 channels.
  const auto g = testing::star_graph(9, 1);
  const Allocation a = Allocation::full(Grid::parse("torus:3x3"), 1);
  EXPECT_DOUBLE_EQ(mcl_lower_bound(g, a), 2);
}

}  // namespace
}  // namespace rankmap::metrics
