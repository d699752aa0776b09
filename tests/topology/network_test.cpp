// Networks: parsing every kind of spec, the errors, the grid adapter, allocations and their hashes.
#include <rankmap/topology/allocation.hpp>
#include <rankmap/topology/allocation_generators.hpp>
#include <rankmap/topology/dragonfly.hpp>
#include <rankmap/topology/fat_tree.hpp>
#include <rankmap/topology/network.hpp>
#include <rankmap/topology/routing.hpp>

#include "input_errors.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace rankmap::topology {
namespace {

using ::testing::HasSubstr;

std::string error_of(std::string_view spec) {
  return testing::input_error_of([&] { Network::parse(spec); });
}

TEST(Network, ParsesEveryKindAndWritesItBack) {
  for (const char* spec : {"torus:4x4x2", "mesh:8", "grid:4x2:torus=10", "fattree:2;4,4;1,2;1,2",
                           "fattree:3;2,2,3;2,2,1;2,1,2", "dragonfly:3,1;2,1;4,1;2", "dragonfly:1,1;1,1;1,1;1"})
    EXPECT_EQ(Network::parse(spec).to_string(), spec);
  EXPECT_EQ(Network::parse("fattree:2;4,4;1,2;1,2").kind(), NetworkKind::fat_tree);
  EXPECT_EQ(Network::parse("dragonfly:3,1;2,1;4,1;2").kind(), NetworkKind::dragonfly);
  EXPECT_TRUE(Network::parse("torus:4").is_grid());
  EXPECT_EQ(Network::parse("torus:4"), Network(Grid::parse("torus:4")));
  EXPECT_FALSE(Network::parse("fattree:1;4;1;1") == Network::parse("fattree:1;4;1;2"));
}

TEST(Network, SpecErrorsNameTheSpecAndTheProblem) {
  EXPECT_THAT(error_of("ring:4"), HasSubstr("expected torus:"));
  EXPECT_THAT(error_of("fattree:2;4,4;1,2"), HasSubstr("4 parts"));
  EXPECT_THAT(error_of("fattree:2;4,4;1,2;1"), HasSubstr("2 levels but 1 parallel-link counts"));
  EXPECT_THAT(error_of("fattree:2;4,x;1,2;1,2"), HasSubstr("down-port counts: 'x' is not a whole number"));
  EXPECT_THAT(error_of("fattree:0;;;"), HasSubstr("the number of levels: '0'"));
  EXPECT_THAT(error_of("fattree:9;1,1,1,1,1,1,1,1,1;1,1,1,1,1,1,1,1,1;1,1,1,1,1,1,1,1,1"), HasSubstr("1 to 8 levels"));
  EXPECT_THAT(error_of("fattree:2;4,,4;1,2;1,2"), HasSubstr("fattree:2;4,,4;1,2;1,2"));
  EXPECT_THAT(error_of("fattree:3;2048,1024,1024;1,1,1;1,1,1"), HasSubstr("2^31 nodes"));
  EXPECT_THAT(error_of("fattree:2;2,2;65536,65536;16,16"), HasSubstr("too many"));
  EXPECT_THAT(error_of("dragonfly:3,1;2,1;4,1"), HasSubstr("4 parts"));
  EXPECT_THAT(error_of("dragonfly:3;2,1;4,1;2"), HasSubstr("two numbers 'count,links'"));
  EXPECT_THAT(error_of("dragonfly:3,1;2,1;4,0;2"), HasSubstr("routers and their links: '0'"));
  EXPECT_THAT(error_of("dragonfly:5,1;2,1;4,1;2"), HasSubstr("5 groups need at least as many routers per chassis (4)"));
  EXPECT_THAT(error_of("dragonfly:3,1;2,1;4,1;-2"), HasSubstr("nodes per router: '-2'"));
}

TEST(Network, GridAdapterAnswersAsTheGrid) {
  const Grid g = Grid::parse("grid:4x3:torus=10");
  const Network n = g;
  EXPECT_EQ(&n.grid(), n.grid_if());
  EXPECT_EQ(n.grid(), g);
  EXPECT_EQ(n.num_nodes(), 12);
  EXPECT_EQ(n.hops(0, 11), g.hops(0, 11));
  EXPECT_EQ(n.diameter(), g.diameter());
  EXPECT_EQ(n.min_hops(), 1);
  EXPECT_EQ(n.num_channels(), g.num_channels());
  EXPECT_EQ(n.total_capacity(), g.total_capacity());
  const ChannelId c = g.channel(g.node_at(std::vector<int>{1, 2}), 0, Direction::minus);
  EXPECT_EQ(n.channel_name(c), "(1,2) dim 0-");
  EXPECT_EQ(n.routing_names(), (std::vector<std::string>{"adaptive", "adaptive-hop", "dor"}));
  EXPECT_EQ(n.fat_tree(), nullptr);
}

TEST(Network, GridOnlyCodeNamesTheAlgorithmAndTheNetwork) {
  const Network tree = Network::parse("fattree:2;4,4;1,2;1,2");
  EXPECT_THAT(testing::input_error_of([&] { require_grid(tree, "hilbert"); }),
              HasSubstr("hilbert works on the coordinates of a torus or mesh, and fattree:2;4,4;1,2;1,2 has none"));
  EXPECT_NO_THROW(require_grid(Network::parse("mesh:3"), "hilbert"));
  EXPECT_THAT(testing::input_error_of([&] { tree.grid(); }), HasSubstr("fattree:2;4,4;1,2;1,2 is not one"));
}

TEST(Network, RoutingNamesAreCheckedAgainstTheNetwork) {
  const Network tree = Network::parse("fattree:2;4,4;1,2;1,2");
  const Network df = Network::parse("dragonfly:3,1;2,1;4,1;2");
  EXPECT_EQ(make_routing_model(tree, "dmodk")->name(), "dmodk");
  EXPECT_EQ(make_routing_model(df, "valiant")->name(), "valiant");
  // Each network's default is its own static routing, except on grids (docs/decisions.md).
  EXPECT_EQ(make_routing_model(tree, RoutingSpec{})->name(), "dmodk");
  EXPECT_EQ(make_routing_model(df, RoutingSpec{})->name(), "minimal");
  EXPECT_EQ(make_routing_model(Network::parse("torus:4"), RoutingSpec{})->name(), "adaptive");
  EXPECT_EQ(make_routing_model(tree, "default")->name(), "dmodk");
  EXPECT_EQ(RoutingSpec::parse("default").to_string(), "default");
  EXPECT_EQ(RoutingSpec{}.on(df).kind, RoutingKind::minimal);
  EXPECT_EQ(RoutingSpec::parse("valiant").on(df).kind, RoutingKind::valiant);
  EXPECT_THAT(testing::input_error_of([&] { make_routing_model(tree, "minimal"); }),
              HasSubstr("routing 'minimal' does not apply to fattree:2;4,4;1,2;1,2, which takes dmodk (the default) "
                        "or adaptive"));
  EXPECT_THAT(testing::input_error_of([&] { make_routing_model(df, "dor"); }),
              HasSubstr("which takes minimal (the default), adaptive or valiant"));
  EXPECT_THAT(testing::input_error_of([&] { make_routing_model(Network::parse("torus:4"), "dmodk"); }),
              HasSubstr("takes adaptive (the default), adaptive-hop or dor"));
  EXPECT_EQ(RoutingSpec::parse("valiant").to_string(), "valiant");
  EXPECT_EQ(RoutingSpec::parse("dmodk").kind, RoutingKind::dmodk);
}

TEST(Network, AllocationsOnAFatTree) {
  const Network tree = Network::parse("fattree:2;4,4;1,2;1,2");
  const Allocation a = Allocation::full(tree, 2);
  EXPECT_EQ(a.num_slots(), 32);
  EXPECT_EQ(a.network(), tree);
  EXPECT_THROW(a.grid(), InputError);
  EXPECT_THAT(testing::input_error_of([&] { Allocation(tree, {3, 16}); }),
              HasSubstr("slot 1 is on node 16, outside the network fattree:2;4,4;1,2;1,2"));
  // The hash covers the network and the node of every slot.
  EXPECT_EQ(a.hash(), Allocation::full(tree, 2).hash());
  EXPECT_NE(a.hash(), Allocation::full(Network::parse("fattree:2;4,4;1,2;1,1"), 2).hash());
  EXPECT_NE(Allocation(tree, {0, 1}).hash(), Allocation(tree, {1, 0}).hash());
  EXPECT_NE(Allocation(tree, {0, 1}).hash(), Allocation(Grid::parse("mesh:16"), {0, 1}).hash());
}

// Network::hops_to_all counts by groups; it must agree with summing hops() over every pair.
TEST(Network, HopsToAllMatchesPairwiseSums) {
  for (const char* spec : {"fattree:3;2,2,3;2,2,1;2,1,2", "fattree:2;4,4;1,2;1,1", "dragonfly:3,2;2,1;3,1;1",
                           "dragonfly:4,1;3,1;4,2;2", "dragonfly:1,1;2,1;3,1;2"}) {
    const Network n = Network::parse(spec);
    std::vector<NodeId> nodes;
    for (NodeId x = 0; x < n.num_nodes(); x += 1 + x % 3) nodes.push_back(x);  // an irregular subset
    const std::vector<double> fast = n.hops_to_all(nodes);
    ASSERT_EQ(fast.size(), nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      double sum = 0;
      for (NodeId y : nodes) sum += n.hops(nodes[i], y);
      EXPECT_EQ(fast[i], sum) << spec << " node " << nodes[i];
    }
  }
}

TEST(Network, FragmentedAllocationsOffGridsFollowTheNodeOrder) {
  const Network df = Network::parse("dragonfly:8,1;4,1;8,1;2");
  const std::vector<NodeId> nodes = fragmented_nodes(df, 100, 3);
  ASSERT_EQ(nodes.size(), 100u);
  EXPECT_EQ(std::set<NodeId>(nodes.begin(), nodes.end()).size(), 100u);
  EXPECT_TRUE(std::is_sorted(nodes.begin(), nodes.end()));  // first fit along the node list
  EXPECT_GT(nodes.back() - nodes.front(), 100);             // with holes between the runs
  EXPECT_EQ(nodes, fragmented_nodes(df, 100, 3));
  EXPECT_NE(nodes, fragmented_nodes(df, 100, 4));
  const Grid g = Grid::parse("torus:8x8");
  EXPECT_EQ(fragmented_nodes(Network(g), 20, 1), fragmented_nodes(g, 20, 1));
  EXPECT_THROW(fragmented_nodes(df, 513, 1), InputError);
}

}  // namespace
}  // namespace rankmap::topology
