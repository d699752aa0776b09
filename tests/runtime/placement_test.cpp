// Placements from per-process records: network and nodes-only modes, disagreements, sub-placements.
#include "placement.hpp"

#include <gtest/gtest.h>

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
  const PlacementResult r = placement_from_records(records, g);
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
  EXPECT_EQ(placement_from_records(std::vector{record_at(g, 0, {0, 0}), record_on_host(1)}, g).failure,
            "some processes know network coordinates and others do not");
  EXPECT_EQ(placement_from_records(std::vector{record_at(g, 0, {0, 0}), record_at(h, 1, {0, 1})}, g).failure,
            "rank 1 sees a different grid than rank 0");
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
  const Placement p = *placement_from_records(records, g).placement;
  const std::vector<int> ranks = {3, 0};
  const Placement sub = p.subset(ranks);
  EXPECT_EQ(sub.alloc.nodes_of_slots(), (std::vector<NodeId>{2, 0}));
  EXPECT_EQ(sub.socket_of_slot, (std::vector<int>{1, 0}));
  const Placement first = p.first_slots(2);
  EXPECT_EQ(first.alloc.nodes_of_slots(), (std::vector<NodeId>{0, 1}));
}

}  // namespace
}  // namespace rankmap::runtime
