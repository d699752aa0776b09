// Placements from per-process records: network and nodes-only modes, disagreements, sub-placements.
#include "placement.hpp"

#include <gtest/gtest.h>

#include <random>

namespace rankmap::runtime {
namespace {

ProcessRecord record_at(const topology::Grid& g, std::uint64_t key, std::initializer_list<int> coords, int socket = -1) {
  coords::Location where;
  where.node_key = key;
  where.grid = g;
  int d = 0;
  for (int c : coords) where.coords[d++] = c;
  where.socket = socket;
  return make_record(where, true, 42);
}

coords::Location on_grid(const topology::Grid& g) {
  coords::Location where;
  where.grid = g;
  return where;
}

ProcessRecord record_on_host(std::uint64_t key) {
  coords::Location where;
  where.node_key = key;
  return make_record(where, true, 42);
}

TEST(Placement, CoordinatesOnEveryProcessGiveTheNetworkAllocation) {
  const topology::Grid g = topology::Grid::parse("torus:2x3");
  // Ranks 0 and 1 at (1,2) = node 5, rank 2 at (0,1) = node 1.
  const std::vector<ProcessRecord> records = {record_at(g, 5, {1, 2}, 0), record_at(g, 5, {1, 2}, 1),
                                              record_at(g, 1, {0, 1}, 0)};
  const PlacementResult r = placement_from_records(records, on_grid(g));
  ASSERT_TRUE(r.placement) << r.failure;
  EXPECT_EQ(r.placement->mode, Placement::Mode::network);
  EXPECT_EQ(r.placement->alloc.nodes_of_slots(), (std::vector<NodeId>{5, 5, 1}));
  EXPECT_EQ(r.placement->socket_of_slot, (std::vector<int>{0, 1, 0}));
}

TEST(Placement, HostNamesOnlyGiveNodesInOrderOfFirstAppearance) {
  const std::vector<ProcessRecord> records = {record_on_host(77), record_on_host(9), record_on_host(77),
                                              record_on_host(3)};
  const PlacementResult r = placement_from_records(records, std::nullopt);
  ASSERT_TRUE(r.placement) << r.failure;
  EXPECT_EQ(r.placement->mode, Placement::Mode::nodes_only);
  EXPECT_EQ(r.placement->alloc.nodes_of_slots(), (std::vector<NodeId>{0, 1, 0, 2}));
  EXPECT_EQ(r.placement->alloc.grid(), topology::Grid::parse("mesh:3"));
}

TEST(Placement, DisagreementsAreFailuresNamingTheRank) {
  const topology::Grid g = topology::Grid::parse("torus:2x3"), h = topology::Grid::parse("torus:3x3");
  EXPECT_EQ(placement_from_records(std::vector{record_at(g, 0, {0, 0}), record_on_host(1)}, on_grid(g)).failure,
            "some processes know the network and others only their node");
  EXPECT_EQ(placement_from_records(std::vector{record_at(g, 0, {0, 0}), record_at(h, 1, {0, 1})}, on_grid(g)).failure,
            "rank 1 sees a different network than rank 0");
  ProcessRecord other = record_on_host(1);
  other.config_hash = 43;
  EXPECT_EQ(placement_from_records(std::vector{record_on_host(1), other}, std::nullopt).failure,
            "the RANKMAP_* settings of rank 1 differ from those of rank 0");
}

TEST(Placement, ProviderAndConfigErrorsNameTheFirstFailingRank) {
  const std::vector<ProcessRecord> records = {record_on_host(1), make_record(std::nullopt, true, 42),
                                              make_record(std::nullopt, false, 42)};
  const PlacementResult r = placement_from_records(records, std::nullopt);
  EXPECT_FALSE(r.placement);
  EXPECT_EQ(r.failing_rank, 1);
  EXPECT_EQ(r.failure, "rank 1 could not locate itself");
}

TEST(Placement, SubsetsAndFirstSlotsKeepNodesAndSockets) {
  const topology::Grid g = topology::Grid::parse("mesh:4");
  const std::vector<ProcessRecord> records = {record_at(g, 0, {0}, 0), record_at(g, 1, {1}, 1),
                                              record_at(g, 3, {3}, 0), record_at(g, 2, {2}, 1)};
  const Placement p = *placement_from_records(records, on_grid(g)).placement;
  const std::vector<int> ranks = {3, 0};
  const Placement sub = p.subset(ranks);
  EXPECT_EQ(sub.alloc.nodes_of_slots(), (std::vector<NodeId>{2, 0}));
  EXPECT_EQ(sub.socket_of_slot, (std::vector<int>{1, 0}));
  const Placement first = p.first_slots(2);
  EXPECT_EQ(first.alloc.nodes_of_slots(), (std::vector<NodeId>{0, 1}));
}

coords::Location on_network(const topology::Network& network, NodeId node, std::uint64_t key) {
  coords::Location where;
  where.node_key = key;
  where.network = network;
  where.network_node = node;
  return where;
}

coords::Location under_switches(std::vector<std::string> path, std::uint64_t key) {
  coords::Location where;
  where.node_key = key;
  where.switch_path = std::move(path);
  return where;
}

TEST(Placement, NodeIndicesOnEveryProcessGiveTheFatTreeAllocation) {
  const topology::Network net = topology::Network::parse("fattree:2;4,4;1,2;1,2");
  const std::vector<ProcessRecord> records = {make_record(on_network(net, 9, 9), true, 42),
                                              make_record(on_network(net, 2, 2), true, 42),
                                              make_record(on_network(net, 9, 9), true, 42)};
  const PlacementResult r = placement_from_records(records, on_network(net, 9, 9));
  ASSERT_TRUE(r.placement) << r.failure;
  EXPECT_EQ(r.placement->mode, Placement::Mode::network);
  EXPECT_EQ(r.placement->alloc.network(), net);
  EXPECT_EQ(r.placement->alloc.nodes_of_slots(), (std::vector<NodeId>{9, 2, 9}));
  const Placement sub = r.placement->subset(std::vector<int>{1});
  EXPECT_EQ(sub.alloc.network(), net);
  EXPECT_EQ(sub.alloc.nodes_of_slots(), (std::vector<NodeId>{2}));
}

TEST(Placement, ANodeIndexOutsideTheNetworkIsAFailureNotACrash) {
  const topology::Network net = topology::Network::parse("dragonfly:2,1;1,1;2,1;2");
  const std::vector<ProcessRecord> records = {make_record(on_network(net, 1, 1), true, 42),
                                              make_record(on_network(net, 1000, 2), true, 42)};
  const PlacementResult r = placement_from_records(records, on_network(net, 1, 1));
  EXPECT_FALSE(r.placement);
  EXPECT_NE(r.failure.find("1000"), std::string::npos) << r.failure;
}

TEST(Placement, SlurmSwitchPathsGiveTheTreeTheProcessesSpan) {
  // Nodes a and b share leaf switch s0, c is under s1; a runs two processes.
  const std::vector<ProcessRecord> records = {
      make_record(under_switches({"top", "s0"}, 0xa), true, 42), make_record(under_switches({"top", "s1"}, 0xc), true, 42),
      make_record(under_switches({"top", "s0"}, 0xa), true, 42), make_record(under_switches({"top", "s0"}, 0xb), true, 42)};
  const PlacementResult r = placement_from_records(records, under_switches({"top", "s0"}, 0xa));
  ASSERT_TRUE(r.placement) << r.failure;
  EXPECT_EQ(r.placement->mode, Placement::Mode::network);
  // Leaf fan-out 2 (s0 has a and b), 2 leaf switches, one parent each.
  EXPECT_EQ(r.placement->alloc.network(), topology::Network::parse("fattree:2;2,2;1,1;1,1"));
  EXPECT_EQ(r.placement->alloc.nodes_of_slots(), (std::vector<NodeId>{0, 2, 0, 1}));
}

TEST(Placement, SameNamedSwitchesUnderDifferentParentsAreDifferentSwitches) {
  const std::vector<ProcessRecord> records = {make_record(under_switches({"top0", "leaf"}, 1), true, 42),
                                              make_record(under_switches({"top1", "leaf"}, 2), true, 42)};
  const PlacementResult r = placement_from_records(records, under_switches({"top0", "leaf"}, 1));
  ASSERT_TRUE(r.placement) << r.failure;
  // Two roots are joined under one more level: the nodes are under different leaf switches.
  EXPECT_EQ(r.placement->alloc.network(), topology::Network::parse("fattree:3;1,1,2;1,1,1;1,1,1"));
  EXPECT_EQ(r.placement->alloc.nodes_of_slots(), (std::vector<NodeId>{0, 1}));
}

TEST(Placement, ANodeUnderTwoLeafSwitchesIsAFailureNamingTheRank) {
  const std::vector<ProcessRecord> records = {make_record(under_switches({"top", "s0"}, 7), true, 42),
                                              make_record(under_switches({"top", "s1"}, 7), true, 42)};
  const PlacementResult r = placement_from_records(records, under_switches({"top", "s0"}, 7));
  EXPECT_FALSE(r.placement);
  EXPECT_EQ(r.failure,
            "rank 1's SLURM_TOPOLOGY_ADDR puts its node under another leaf switch than its node's other processes");
}

TEST(Placement, SwitchPathsOfDifferentDepthsAreDifferentNetworks) {
  const std::vector<ProcessRecord> records = {make_record(under_switches({"top", "s0"}, 1), true, 42),
                                              make_record(under_switches({"s0"}, 2), true, 42)};
  EXPECT_EQ(placement_from_records(records, under_switches({"top", "s0"}, 1)).failure,
            "rank 1 sees a different network than rank 0");
}

TEST(Placement, ArbitrarySwitchHashesGiveATreeOrAMessageNeverAnException) {
  // Records as other processes might send them: each node's path a function of its key (a
  // consistent tree), then on every other draw one record's hash at one level replaced at random,
  // which may or may not contradict the others.
  std::mt19937 rng(3);
  const coords::Location here = under_switches({"top", "mid", "leaf"}, 1);
  int placed = 0, refused = 0;
  for (int draw = 0; draw < 200; ++draw) {
    std::vector<ProcessRecord> records(40, make_record(here, true, 42));
    for (ProcessRecord& r : records) {
      r.node_key = rng() % 12;
      const auto k = static_cast<std::int32_t>(r.node_key);
      r.coords[0] = k % 2, r.coords[1] = 10 + k % 4, r.coords[2] = 100 + k;
    }
    if (draw % 2) records[rng() % 40].coords[rng() % 3] = static_cast<std::int32_t>(rng() % 16);
    PlacementResult result;
    ASSERT_NO_THROW(result = placement_from_records(records, here));
    if (result.placement) {
      ++placed;
      EXPECT_EQ(result.placement->alloc.num_slots(), 40);
    } else {
      ++refused;
      EXPECT_FALSE(result.failure.empty());
    }
  }
  EXPECT_GT(placed, 0);
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace rankmap::runtime
