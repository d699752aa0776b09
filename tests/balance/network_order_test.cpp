// Balancing along the network: the Hilbert order of the slots and the hop-bytes of a migration.
#include "flow_checks.hpp"

#include <rankmap/balance/network_order.hpp>
#include <rankmap/types.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace rankmap::balance {
namespace {

using topology::Allocation;
using topology::Grid;

// mesh:4x4, one slot per node (node r*4+c at row r, column c). Its Hilbert order starts
// 0 (0,0), 4 (1,0), 5, 1, 2, 3 (0,3), 7 (1,3), ... Nodes 3 and 4 hold 2 tasks, nodes 0 and 7
// none, the rest 1 (k = 1). In rank order surplus 3 fills deficit 0 and 4 fills 7, 3 hops
// each; in Hilbert order 4 comes before 3, so 4 fills 0 and 3 fills 7, 1 hop each.
TEST(NetworkOrder, HilbertOrderPairsNeighbours) {
  const Allocation alloc = Allocation::full(Grid::parse("mesh:4x4"), 1);
  std::vector<long long> counts(16, 1);
  counts[0] = counts[7] = 0;
  counts[3] = counts[4] = 2;
  const AliasFlow plain = alias_flow(counts);
  EXPECT_EQ(plain.sender[0], 3);
  EXPECT_EQ(plain.sender[7], 4);
  EXPECT_DOUBLE_EQ(migration_hop_bytes(plain, alloc, 10), 60);
  const AliasFlow hilbert = alias_flow_hilbert(counts, alloc);
  EXPECT_EQ(hilbert.sender[0], 4);
  EXPECT_EQ(hilbert.sender[7], 3);
  EXPECT_DOUBLE_EQ(migration_hop_bytes(hilbert, alloc, 10), 20);
  testing::expect_alias_guarantees(counts, hilbert);
}

TEST(NetworkOrder, HilbertFlowNeedsOneCountPerSlot) {
  const Allocation alloc = Allocation::full(Grid::parse("torus:4"), 2);
  EXPECT_THROW(alias_flow_hilbert(std::vector<long long>{1, 2, 3}, alloc), InputError);
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
