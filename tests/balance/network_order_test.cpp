#include "flow_checks.hpp"

#include <rankmap/balance/network_order.hpp>
#include <rankmap/types.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace rankmap::balance {
namespace {

using topology::Allocation;
using topology::Grid;

TEST(NetworkOrder, BinsFollowTheNodeOrderSlotsAscending) {
  // Ring of 4 nodes, 2 slots each: node i holds slots 2i and 2i+1.
  const Allocation alloc = Allocation::full(Grid::parse("torus:4"), 2);
  const std::vector<int> nodes{2, 0, 3, 1};
  EXPECT_EQ(bin_order_by_nodes(alloc, nodes), (std::vector<int>{4, 5, 0, 1, 6, 7, 2, 3}));
}

TEST(NetworkOrder, RejectsANodeOrderThatIsNotAPermutation) {
  const Allocation alloc = Allocation::full(Grid::parse("torus:4"), 2);
  EXPECT_THROW(bin_order_by_nodes(alloc, std::vector<int>{0, 1, 2}), InputError);
  EXPECT_THROW(bin_order_by_nodes(alloc, std::vector<int>{0, 1, 2, 2}), InputError);
  EXPECT_THROW(bin_order_by_nodes(alloc, std::vector<int>{0, 1, 2, 4}), InputError);
}

// Slots 6 and 7 (node 3) hold 4 tasks each, the others none; T = 8, k = 1. Slot 6 fills
// slots 0, 1, 2 and slot 7 fills 3, 4, 5. On the ring of 4, node 3 is 1 hop from node 0,
// 2 from node 1 and 1 from node 2: hops 1+1+2 + 2+1+1 = 8 task-hops, 800 bytes at 100 B.
TEST(NetworkOrder, MigrationHopBytesByHand) {
  const Allocation alloc = Allocation::full(Grid::parse("torus:4"), 2);
  const std::vector<long long> counts{0, 0, 0, 0, 0, 0, 4, 4};
  const AliasFlow flow = alias_flow(counts);
  EXPECT_EQ(flow.sender, (std::vector<int>{6, 6, 6, 7, 7, 7, -1, -1}));
  EXPECT_DOUBLE_EQ(migration_hop_bytes(flow, alloc, 100), 800);
  testing::expect_alias_guarantees(counts, flow);
}

TEST(NetworkOrder, MigrationHopBytesRejectsAFlowOfTheWrongSize) {
  const Allocation alloc = Allocation::full(Grid::parse("torus:4"), 2);
  EXPECT_THROW(migration_hop_bytes(alias_flow(std::vector<long long>{1, 2}), alloc, 1), InputError);
}

}  // namespace
}  // namespace rankmap::balance
