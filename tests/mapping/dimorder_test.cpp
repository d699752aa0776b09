// dimorder and dimorder-best on orders that can be written out by hand.
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include "factories.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace rankmap::mapping {
namespace {

using topology::Allocation;
using topology::Grid;

Mapping run(std::string_view chain, const graph::CommGraph& g, const Allocation& a, MapOptions options = {}) {
  return run_chain(chain, core_algorithms(), g, a, options);
}

TEST(Dimorder, DefaultOrderIsTheIdentityOnAFullGrid) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x2x3"), 2);
  const auto g = testing::random_graph(a.num_slots(), 2, 1);
  EXPECT_EQ(run("dimorder:ABCT", g, a), identity_mapping(48));
  EXPECT_EQ(run("dimorder", g, a), identity_mapping(48));
  EXPECT_EQ(run("dimorder:abc", g, a), identity_mapping(48));  // T left out is fastest; case does not matter
  EXPECT_EQ(run("dimorder:ABCT", testing::random_graph(40, 2, 1), a.first_slots(40)), identity_mapping(40));
}

TEST(Dimorder, SlotIndexSlowestVisitsEveryNodeOncePerRound) {
  // torus:2x2 with 2 slots per node: slots 0,1 on node 0, 2,3 on node 1 ... TAB takes the first
  // slot of every node in node order, then the second.
  const Allocation a = Allocation::full(Grid::parse("torus:2x2"), 2);
  EXPECT_EQ(run("dimorder:TAB", testing::path_graph(8), a), (Mapping{0, 2, 4, 6, 1, 3, 5, 7}));
}

TEST(Dimorder, SecondDimensionSlowest) {
  // mesh:2x3, node (a,b) = 3a + b. BA walks (0,0) (1,0) (0,1) (1,1) (0,2) (1,2).
  const Allocation a = Allocation::full(Grid::parse("mesh:2x3"), 1);
  EXPECT_EQ(run("dimorder:BA", testing::path_graph(6), a), (Mapping{0, 3, 1, 4, 2, 5}));
}

TEST(Dimorder, PartialAllocationIsSortedByCoordinates) {
  // Slots on nodes 7, 2, 5 of mesh:3x3: (2,1) (0,2) (1,2). ABT orders them (0,2) (1,2) (2,1),
  // that is slots 1, 2, 0; BAT orders them (2,1) (0,2) (1,2), slots 0, 1, 2.
  const Allocation a(Grid::parse("mesh:3x3"), {7, 2, 5});
  EXPECT_EQ(run("dimorder:ABT", testing::path_graph(3), a), (Mapping{1, 2, 0}));
  EXPECT_EQ(run("dimorder:BAT", testing::path_graph(3), a), (Mapping{0, 1, 2}));
}

TEST(Dimorder, RefusesOrdersThatDoNotNameEveryDimensionOnce) {
  const Allocation a = Allocation::full(Grid::parse("mesh:2x3"), 1);
  const auto g = testing::path_graph(6);
  for (const char* bad : {"dimorder:A", "dimorder:AAB", "dimorder:ABC", "dimorder:ABTT", "dimorder:AB-"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(run(bad, g, a), InputError);
  }
}

TEST(DimorderBest, FindsTheTransposedOrder) {
  // A 4x2 task grid (task = 2r + c) on mesh:2x4. Walking B slowest puts task (r, c) on node
  // (c, r): every edge is one hop and every channel carries one byte, MCL 1. The default order
  // puts tasks 0 and 2 two hops apart, so two bytes share a channel somewhere.
  const Allocation a = Allocation::full(Grid::parse("mesh:2x4"), 1);
  const auto g = testing::grid_graph(4, 2);
  const auto adaptive = topology::make_routing_model(a.grid(), "adaptive");
  EXPECT_DOUBLE_EQ(metrics::max_channel_load(g, a, run("dimorder:BA", g, a), *adaptive), 1);
  EXPECT_GT(metrics::max_channel_load(g, a, identity_mapping(8), *adaptive), 1);
  MapOptions options;
  options.time_budget_ms = 1e6;
  EXPECT_DOUBLE_EQ(metrics::max_channel_load(g, a, run("dimorder-best", g, a, options), *adaptive), 1);
}

// No order is scored past the deadline: without time to rank or score the others, the default
// order (the identity on a full grid) is returned unscored, though the transposed one is better.
TEST(DimorderBest, ReturnsTheDefaultOrderWhenNoOtherCanBeScored) {
  const Allocation a = Allocation::full(Grid::parse("mesh:2x4"), 1);
  const auto g = testing::grid_graph(4, 2);
  MapOptions options;
  options.time_budget_ms = 1e6;
  ASSERT_NE(run("dimorder-best", g, a, options), identity_mapping(8));
  options.time_budget_ms = 1e-6;
  EXPECT_EQ(run("dimorder-best", g, a, options), identity_mapping(8));
}

TEST(DimorderBest, NeverWorseThanTheDefaultOrderEvenWithOneCandidate) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x2"), 2);
  const auto g = testing::random_graph(64, 4, 3);
  const auto adaptive = topology::make_routing_model(a.grid(), "adaptive");
  const double identity = metrics::max_channel_load(g, a, identity_mapping(64), *adaptive);
  EXPECT_EQ(run("dimorder-best:1", g, a), identity_mapping(64));
  EXPECT_LE(metrics::max_channel_load(g, a, run("dimorder-best", g, a), *adaptive), identity);
}

TEST(DimorderBest, UnderHopBytesKeepsTheOrderWithTheFewestHopBytes) {
  // Every order of A, B, C and T, by hand: under the hop-bytes objective the screening's own figures
  // decide, and the result must be the lowest of them (the default order on a tie).
  const Allocation a = Allocation::full(Grid::parse("torus:4x2x3"), 2);
  const auto g = testing::random_graph(a.num_slots(), 3, 7);
  std::string keys = "ABCT";
  double lowest = metrics::hop_bytes(g, a, run("dimorder:ABCT", g, a));
  while (std::next_permutation(keys.begin(), keys.end()))
    lowest = std::min(lowest, metrics::hop_bytes(g, a, run("dimorder:" + keys, g, a)));
  MapOptions options;
  options.objective = Objective::hop_bytes;
  options.time_budget_ms = 1e6;
  const Mapping best = run("dimorder-best", g, a, options);
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(g, a, best), lowest);
  EXPECT_LT(lowest, metrics::hop_bytes(g, a, identity_mapping(a.num_slots())));  // else the test shows nothing
}

/// The lowest MCL under `routing` over every order of the keys, each laid out by hand.
double lowest_mcl_of_every_order(const graph::CommGraph& g, const Allocation& a, std::string keys,
                                 std::string_view routing) {
  const auto model = topology::make_routing_model(a.grid(), routing);
  std::sort(keys.begin(), keys.end());
  double lowest = metrics::max_channel_load(g, a, run("dimorder:" + keys, g, a), *model);
  while (std::next_permutation(keys.begin(), keys.end()))
    lowest = std::min(lowest, metrics::max_channel_load(g, a, run("dimorder:" + keys, g, a), *model));
  return lowest;
}

TEST(DimorderBest, OrdersThatOnlySwapAlikeDimensionsScoreAlike) {
  // On the whole torus:4x4x4 A, B and C are alike: swapping two of them mirrors the mapping, so
  // dimorder-best scores 4 of the 24 orders, and must still find the lowest of all 24.
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x4"), 2);
  const auto g = testing::random_graph(a.num_slots(), 3, 5);
  const auto adaptive = topology::make_routing_model(a.grid(), "adaptive");
  EXPECT_DOUBLE_EQ(metrics::max_channel_load(g, a, run("dimorder:ACTB", g, a), *adaptive),
                   metrics::max_channel_load(g, a, run("dimorder:CBTA", g, a), *adaptive));
  MapOptions options;
  options.time_budget_ms = 1e6;
  EXPECT_DOUBLE_EQ(metrics::max_channel_load(g, a, run("dimorder-best", g, a, options), *adaptive),
                   lowest_mcl_of_every_order(g, a, "ABCT", "adaptive"));
}

TEST(DimorderBest, DimensionsAreNotAlikeUnderDor) {
  // dor corrects A first, so swapping A and B changes the loads: every order is scored.
  const Allocation whole = Allocation::full(Grid::parse("torus:4x4x2"), 2);
  const auto g = testing::random_graph(whole.num_slots(), 3, 4);  // its best dor order puts B before A
  MapOptions dor;
  dor.time_budget_ms = 1e6;
  dor.routing = topology::RoutingSpec::parse("dor");
  const auto dor_model = topology::make_routing_model(whole.grid(), "dor");
  EXPECT_DOUBLE_EQ(metrics::max_channel_load(g, whole, run("dimorder-best", g, whole, dor), *dor_model),
                   lowest_mcl_of_every_order(g, whole, "ABCT", "dor"));
}

}  // namespace
}  // namespace rankmap::mapping
