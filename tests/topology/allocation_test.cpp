// Allocations: slots per node, first-appearance node order, bad nodes, truncation and the hash.
#include <rankmap/topology/allocation.hpp>

#include <gtest/gtest.h>

namespace rankmap::topology {
namespace {

TEST(Allocation, FullGridPlacesPpnConsecutiveSlotsPerNode) {
  const Allocation a = Allocation::full(Grid::parse("torus:2x2"), 3);
  EXPECT_EQ(a.num_slots(), 12);
  EXPECT_EQ(a.num_nodes(), 4);
  EXPECT_EQ(a.node_of_slot(0), 0);
  EXPECT_EQ(a.node_of_slot(5), 1);
  EXPECT_EQ(a.node_of_slot(11), 3);
  EXPECT_EQ(a.max_ppn(), 3);
  const auto slots = a.slots_of_node(2);
  ASSERT_EQ(slots.size(), 3u);
  EXPECT_EQ(slots[0], 6);
  EXPECT_EQ(slots[2], 8);
}

TEST(Allocation, IrregularNodesKeepFirstAppearanceOrder) {
  const Grid g = Grid::parse("mesh:4x4");
  const Allocation a(g, {9, 2, 9, 15, 2});
  EXPECT_EQ(a.num_nodes(), 3);
  EXPECT_EQ(a.node(0), 9);
  EXPECT_EQ(a.node(1), 2);
  EXPECT_EQ(a.node(2), 15);
  EXPECT_EQ(a.node_index_of_slot(4), 1);
  EXPECT_EQ(a.max_ppn(), 2);
  const auto slots = a.slots_of_node(0);
  ASSERT_EQ(slots.size(), 2u);
  EXPECT_EQ(slots[1], 2);
}

TEST(Allocation, RejectsNodesOutsideTheGrid) {
  EXPECT_THROW(Allocation(Grid::parse("mesh:2x2"), {0, 4}), InputError);
  EXPECT_THROW(Allocation(Grid::parse("mesh:2x2"), {}), InputError);
  EXPECT_THROW(Allocation::full(Grid::parse("mesh:2"), 0), InputError);
}

TEST(Allocation, FirstSlotsAndHash) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4"), 2);
  const Allocation b = a.first_slots(5);
  EXPECT_EQ(b.num_slots(), 5);
  EXPECT_EQ(b.num_nodes(), 3);
  EXPECT_NE(a.hash(), b.hash());
  EXPECT_EQ(b.hash(), Allocation::full(Grid::parse("torus:4x4"), 2).first_slots(5).hash());
  // The same node sequence on a different grid is a different allocation.
  EXPECT_NE(Allocation(Grid::parse("mesh:4x4"), {0, 1}).hash(), Allocation(Grid::parse("torus:4x4"), {0, 1}).hash());
  EXPECT_THROW(a.first_slots(33), InputError);
}

}  // namespace
}  // namespace rankmap::topology
