// Metrics on fat-trees and dragonflies, with the values worked out by hand in the comments.
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/dilation.hpp>
#include <rankmap/metrics/hop_bytes.hpp>
#include <rankmap/metrics/lower_bound.hpp>
#include <rankmap/metrics/quality.hpp>
#include <rankmap/topology/dragonfly.hpp>
#include <rankmap/topology/fat_tree.hpp>

#include "factories.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace rankmap::metrics {
namespace {

using topology::Allocation;
using topology::Network;

std::vector<SlotId> identity(SlotId n) {
  std::vector<SlotId> m(static_cast<std::size_t>(n));
  std::iota(m.begin(), m.end(), 0);
  return m;
}

// A ring of 16 tasks, 1 byte each way, on fattree:2;4,4;1,2;1,2 (leaves of 4 nodes), one per node.
TEST(FatTreeMetrics, RingInNodeOrder) {
  const Allocation a = Allocation::full(Network::parse("fattree:2;4,4;1,2;1,2"), 1);
  const auto g = testing::ring_graph(16);
  const auto m = identity(16);
  // Per direction: 12 edges within a leaf at 2 hops, 4 (3-4, 7-8, 11-12, 15-0) across leaves at 4.
  EXPECT_DOUBLE_EQ(hop_bytes(g, a, m), 2 * (12 * 2 + 4 * 4));
  EXPECT_DOUBLE_EQ(dilation(g, a, m).average, 80.0 / 32);
  EXPECT_EQ(dilation(g, a, m).max, 4);
  // Each node sends 2 bytes up its one link and receives 2: MCL 2 under both models, while a
  // leaf's 4 up links share the 2 bytes leaving it.
  for (const char* routing : {"adaptive", "dmodk"})
    EXPECT_DOUBLE_EQ(max_channel_load(g, a, m, *topology::make_routing_model(a.network(), routing)), 2) << routing;
  // Lower bound: 2 forced bytes per task, 32 in all, each over at least 2 of the 64 channels: 1;
  // one task's 2 bytes through its node's single up link: 2. The ring reaches it.
  EXPECT_DOUBLE_EQ(mcl_lower_bound(g, a), 2);
  const Quality q = evaluate(g, a, m);
  ASSERT_EQ(q.mcl_by_routing.size(), 2u);
  EXPECT_EQ(q.mcl_by_routing[0].first, "dmodk");  // the default first
  EXPECT_DOUBLE_EQ(q.mcl_by_routing[1].second, 2);
  EXPECT_EQ(q.mcl_adaptive, 0);  // the grid fields stay 0 off grids
}

TEST(FatTreeMetrics, SpreadBoundCountsTwoChannelsPerByte) {
  // Two tasks per node, everyone sends 1 byte to everyone (16 tasks on 8 nodes of fattree:1;8;1;1):
  // each task keeps 1 neighbour on its node, so 14 bytes leave it, 224 in all, each over 2 of
  // the 16 channels: 28. One task's 14 bytes through one link: 14. The bound is 28.
  const Allocation a = Allocation::full(Network::parse("fattree:1;8;1;1"), 2);
  EXPECT_DOUBLE_EQ(mcl_lower_bound(testing::complete_graph(16), a), 224.0 * 2 / 16);
}

// dragonfly:3,2;2,1;3,1;1: router (and node) (g,c,b) is (2g+c)*3+b.
TEST(DragonflyMetrics, RingInNodeOrder) {
  const Allocation a = Allocation::full(Network::parse("dragonfly:3,2;2,1;3,1;1"), 1);
  const auto g = testing::ring_graph(18);
  const auto m = identity(18);
  // Per direction: 12 edges between routers of one chassis (3 hops), 3 between chassis of a group
  // (2->3, 8->9, 14->15: blade and chassis change, 4 hops), 5->6 and 11->12 between groups (5),
  // and 17->0, (2,1,2) -> (0,0,0), 6 hops: to blade 0, to chassis 0, global, to blade 0.
  EXPECT_DOUBLE_EQ(hop_bytes(g, a, m), 2 * (12 * 3 + 3 * 4 + 5 + 5 + 6));
  EXPECT_EQ(dilation(g, a, m).max, 6);
  // Every node's link to its router carries 2 bytes; the bound: 36 forced bytes over at least 3
  // of 102 units of capacity (1.06), or one task's 2 bytes through its node's link: 2.
  EXPECT_DOUBLE_EQ(mcl_lower_bound(g, a), 2);
  for (const char* routing : {"minimal", "adaptive", "valiant"}) {
    const auto model = topology::make_routing_model(a.network(), routing);
    const std::vector<double> loads = channel_loads(g, a, m, *model);
    EXPECT_DOUBLE_EQ(loads[a.network().dragonfly()->node_to_router(7)], 2) << routing;
    EXPECT_GE(max_channel_load(loads), 2) << routing;
  }
}

TEST(DragonflyMetrics, ValiantDoublesTheGlobalTraffic) {
  // One byte from group 0 to group 1 on dragonfly:4,1;1,1;4,1;1 crosses 1 global link minimally,
  // 2 under Valiant (half through group 2, half through group 3), and the direct one carries nothing.
  const Allocation a = Allocation::full(Network::parse("dragonfly:4,1;1,1;4,1;1"), 1);
  const auto& df = *a.network().dragonfly();
  const std::vector<metrics::NodeFlow> flow = {{0, 5, 1.0}};
  const auto minimal = channel_loads(flow, *topology::make_routing_model(a.network(), "minimal"));
  const auto valiant = channel_loads(flow, *topology::make_routing_model(a.network(), "valiant"));
  double global_minimal = 0, global_valiant = 0;
  for (int r = 0; r < df.num_routers(); ++r) {
    global_minimal += minimal[df.blue(r)];
    global_valiant += valiant[df.blue(r)];
  }
  EXPECT_DOUBLE_EQ(global_minimal, 1);
  EXPECT_DOUBLE_EQ(global_valiant, 2);
  EXPECT_DOUBLE_EQ(valiant[df.blue(df.router_index(0, 0, 1))], 0);
}

}  // namespace
}  // namespace rankmap::metrics
