// The Hilbert order: adjacency on power-of-two boxes, and what it does on other allocations.
#include <rankmap/mapping/hilbert.hpp>
#include <rankmap/mapping/mapping.hpp>

#include "factories.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace rankmap::mapping {
namespace {

using topology::Allocation;
using topology::Grid;

/// Largest hop count between nodes that follow each other in `order`.
int largest_step(const Allocation& a, const std::vector<int>& order) {
  int worst = 0;
  for (std::size_t i = 1; i < order.size(); ++i)
    worst = std::max(worst, a.grid().hops(a.node(order[i - 1]), a.node(order[i])));
  return worst;
}

bool is_order_of_all_nodes(const Allocation& a, std::vector<int> order) {
  std::sort(order.begin(), order.end());
  for (int i = 0; i < a.num_nodes(); ++i)
    if (order.size() != static_cast<std::size_t>(a.num_nodes()) || order[i] != i) return false;
  return true;
}

class PowerOfTwoBox : public ::testing::TestWithParam<const char*> {};

// On a full box of side 2^b every step of a Hilbert curve joins grid neighbours, and it starts at
// the origin. A mesh, so that no step can cheat through a wrap-around link.
TEST_P(PowerOfTwoBox, ConsecutiveNodesAreNeighbours) {
  const Allocation a = Allocation::full(Grid::parse(GetParam()), 1);
  const std::vector<int> order = hilbert_node_order(a);
  ASSERT_TRUE(is_order_of_all_nodes(a, order));
  EXPECT_EQ(a.node(order.front()), 0);
  EXPECT_EQ(largest_step(a, order), 1);
}

INSTANTIATE_TEST_SUITE_P(Dimensions2To6, PowerOfTwoBox,
                         ::testing::Values("mesh:2x2", "mesh:16x16", "mesh:8x8x8", "mesh:4x4x4x4", "mesh:8x8x8x8",
                                           "mesh:4x4x4x4x4", "mesh:2x2x2x2x2x2", "mesh:4x4x4x4x4x4"));

TEST(Hilbert, FourByFourMeshVisitsNeighboursAndFillsNodesInTurn) {
  // mesh:4x4 with 2 slots per node: tasks 2k and 2k+1 share a node, and each next node is a
  // neighbour of the previous one.
  const Allocation a = Allocation::full(Grid::parse("mesh:4x4"), 2);
  const Mapping m = run_chain("hilbert", core_algorithms(), testing::path_graph(32), a, {});
  for (int t = 0; t < 32; t += 2) EXPECT_EQ(a.node_of_slot(m[t]), a.node_of_slot(m[t + 1]));
  for (int t = 2; t < 32; t += 2) EXPECT_EQ(a.grid().hops(a.node_of_slot(m[t - 2]), a.node_of_slot(m[t])), 1);
}

TEST(Hilbert, PartialAllocationFollowsTheFullCurve) {
  // Drop every third node of mesh:8x8 but keep the corners, so the bounding box is unchanged:
  // the partial order is the full order with the missing nodes skipped.
  const Grid g = Grid::parse("mesh:8x8");
  const Allocation full = Allocation::full(g, 1);
  std::vector<NodeId> kept;
  for (NodeId n = 0; n < 64; ++n)
    if (n % 3 != 1 || n == 0 || n == 63) kept.push_back(n);
  std::reverse(kept.begin(), kept.end());  // first-appearance order must not matter
  const Allocation partial = Allocation::of_nodes(g, kept, 1);
  std::vector<NodeId> expected, got;
  for (int i : hilbert_node_order(full))
    if (std::find(kept.begin(), kept.end(), full.node(i)) != kept.end()) expected.push_back(full.node(i));
  for (int i : hilbert_node_order(partial)) got.push_back(partial.node(i));
  EXPECT_EQ(got, expected);
}

TEST(Hilbert, NonPowerOfTwoSidesGiveAnOrderOfEveryNode) {
  for (const char* spec : {"mesh:5x3", "torus:3x5x7", "mesh:6x10x1", "torus:9", "mesh:3x3x3x3x3x3"}) {
    SCOPED_TRACE(spec);
    const Allocation a = Allocation::full(Grid::parse(spec), 1);
    EXPECT_TRUE(is_order_of_all_nodes(a, hilbert_node_order(a)));
  }
  // 3x3 sits in the 4x4 curve, which runs (0,0) (1,0) (1,1) (0,1) (0,2) [(0,3) (1,3)] (1,2) (2,2)
  // [(2,3) (3,3) (3,2) (3,1)] (2,1) (2,0) [(3,0)]: skipping the points outside the box, (0,2) -> (1,2) and
  // (2,2) -> (2,1) are still one hop, and so is every other step.
  const Allocation a = Allocation::full(Grid::parse("mesh:3x3"), 1);
  std::vector<NodeId> got;
  for (int i : hilbert_node_order(a)) got.push_back(a.node(i));
  EXPECT_EQ(got, (std::vector<NodeId>{0, 3, 4, 1, 2, 5, 8, 7, 6}));
}

TEST(Hilbert, TorusAllocationAcrossTheSeamIsNotCut) {
  // Nodes 14, 15, 0, 1 of a 16-ring: the curve starts after the gap 2..13, at 14.
  const Allocation a = Allocation::of_nodes(Grid::parse("torus:16"), std::vector<NodeId>{0, 1, 14, 15}, 1);
  std::vector<NodeId> got;
  for (int i : hilbert_node_order(a)) got.push_back(a.node(i));
  EXPECT_EQ(got, (std::vector<NodeId>{14, 15, 0, 1}));
}

TEST(Hilbert, DisconnectedPiecesAreEachVisitedInOneRun) {
  // Two 2x2 blocks in opposite corners of an 8x8 mesh: the curve finishes one block before the other.
  const Grid g = Grid::parse("mesh:8x8");
  const Allocation a = Allocation::of_nodes(g, std::vector<NodeId>{63, 0, 1, 8, 9, 54, 55, 62}, 1);
  const std::vector<int> order = hilbert_node_order(a);
  int piece_changes = 0;
  for (std::size_t i = 1; i < order.size(); ++i)
    piece_changes += (a.node(order[i]) < 32) != (a.node(order[i - 1]) < 32);
  EXPECT_EQ(piece_changes, 1);
}

TEST(Hilbert, EightDimensionsNeedWideKeys) {
  // 8 dimensions of 9 bits each (the longest side is 512): 72 bits, past a 64-bit key.
  const Allocation a = Allocation::full(Grid::parse("mesh:512x2x2x2x2x2x2x2"), 1);
  const std::vector<int> order = hilbert_node_order(a);
  EXPECT_TRUE(is_order_of_all_nodes(a, order));
  EXPECT_EQ(a.node(order.front()), 0);
}

TEST(Hilbert, SingleNodeAndSlotOrder) {
  const Allocation a(Grid::parse("torus:4x4"), {5, 5, 5});
  EXPECT_EQ(hilbert_node_order(a), std::vector<int>{0});
  EXPECT_EQ(hilbert_slot_order(a), (std::vector<SlotId>{0, 1, 2}));
}

}  // namespace
}  // namespace rankmap::mapping
