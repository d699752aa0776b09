// Mapping on fat-trees and dragonflies: what works on every network gives permutations, what needs
// grid coordinates refuses by name, and the tree multisection keeps cliques under one switch.
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>
#include <rankmap/metrics/node_flows.hpp>

#include "factories.hpp"
#include "input_errors.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <set>

namespace rankmap::mapping {
namespace {

using ::testing::HasSubstr;
using topology::Allocation;
using topology::Network;

struct Instance {
  std::string name;
  graph::CommGraph graph;
  Allocation alloc;
};

std::vector<Instance> network_instances() {
  const Network tree = Network::parse("fattree:2;4,4;1,2;1,2");
  const Network tapered = Network::parse("fattree:3;2,2,3;2,2,1;2,1,2");
  const Network df = Network::parse("dragonfly:3,2;2,1;3,1;2");
  std::vector<Instance> v;
  v.push_back({"tree_ring", testing::ring_graph(16), Allocation::full(tree, 1)});
  v.push_back({"tree_ppn2_stencil", testing::stencil_graph({8, 4}, true), Allocation::full(tree, 2)});
  v.push_back({"tree_fragment_uneven", testing::random_graph(11, 3, 1), Allocation(tree, {9, 2, 9, 14, 2, 15, 9, 14, 5, 0, 0})});
  v.push_back({"tapered_truncated", testing::random_graph(20, 3, 2), Allocation::full(tapered, 2).first_slots(20)});
  v.push_back({"dragonfly_full", testing::random_graph(36, 4, 3), Allocation::full(df, 1)});
  v.push_back({"dragonfly_part_ppn3", testing::complete_graph(13),
               Allocation::of_nodes(df, std::vector<NodeId>{35, 0, 7, 20, 21}, 3).first_slots(13)});
  v.push_back({"one_task", graph::CommGraph::from_edges(1, {}), Allocation::full(tree, 1).first_slots(1)});
  v.push_back({"no_edges", graph::CommGraph::from_edges(8, {}), Allocation::full(df, 1).first_slots(8)});
  return v;
}

class OnEveryNetwork : public ::testing::TestWithParam<std::string> {};

TEST_P(OnEveryNetwork, ReturnsAPermutationUnderEveryRoutingAndObjective) {
  for (const Instance& instance : network_instances()) {
    for (const std::string& routing : instance.alloc.network().routing_names()) {
      for (const Objective objective : {Objective::mcl, Objective::hop_bytes}) {
        SCOPED_TRACE(instance.name + " " + routing + " " + std::string(to_string(objective)));
        MapOptions options;
        options.time_budget_ms = 15;
        options.routing = topology::RoutingSpec::parse(routing);
        options.objective = objective;
        const Mapping m = run_chain(GetParam(), core_algorithms(), instance.graph, instance.alloc, options);
        EXPECT_TRUE(is_permutation(m));
        EXPECT_NO_THROW(metrics::check_mapping(instance.graph, instance.alloc, m));
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Networks, OnEveryNetwork,
                         ::testing::Values("identity", "gge", "mahd", "mahd:direct", "emahd", "emahd:direct,4",
                                           "refine", "anneal", "tree", "tree:start", "mahd+refine", "tree:start+anneal"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(GridOnly, RefusesOtherNetworksByName) {
  const Instance instance = network_instances().front();
  for (const char* algorithm : {"hilbert", "dimorder", "dimorder-best", "split", "rcm", "grasp"}) {
    MapOptions options;
    options.time_budget_ms = 10;
    EXPECT_THAT(testing::input_error_of([&] {
                  run_chain(algorithm, core_algorithms(), instance.graph, instance.alloc, options);
                }),
                HasSubstr(std::string(algorithm) + " works on the coordinates of a torus or mesh, and "
                                                    "fattree:2;4,4;1,2;1,2 has none"));
  }
}

/// The network groups of `level` that hold the members of each clique (member i of clique c is
/// task i * cliques + c, interleaved so that the launcher's order spreads every clique).
std::vector<std::set<NodeId>> clique_groups(const Mapping& m, const Allocation& a, int cliques, int size, int level) {
  std::vector<std::set<NodeId>> groups(static_cast<std::size_t>(cliques));
  for (int c = 0; c < cliques; ++c)
    for (int i = 0; i < size; ++i)
      groups[c].insert(a.node_of_slot(m[i * cliques + c]) / a.network().level_size(level));
  return groups;
}

TEST(Tree, MultisectionPutsEachCliqueUnderOneSwitch) {
  // 4 cliques of 4 tasks (10 bytes each way inside), joined in a ring by 1-byte edges, on the 4
  // leaves of 4 nodes of fattree:2;4,4;1,2;1,2: every clique fills one leaf. Hop-bytes: 12 clique
  // edges x 10 bytes x 2 hops per clique, and 8 ring edges x 1 byte x 4 hops: 4 * 240 + 32.
  const auto g = testing::clique_ring(4, 4, 10, 1, true);
  const Allocation a = Allocation::full(Network::parse("fattree:2;4,4;1,2;1,2"), 1);
  const Mapping m = run_chain("tree:start", core_algorithms(), g, a, MapOptions{});
  for (const auto& leaves : clique_groups(m, a, 4, 4, 1)) EXPECT_EQ(leaves.size(), 1u);
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(g, a, m), 4 * 240 + 32);
  // The launcher's order puts the members of every clique under four different leaves.
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(g, a, identity_mapping(16)), 4 * 12 * 10 * 4 + 8 * 4);
}

TEST(Tree, MultisectionFollowsTheDragonflyLevels) {
  // dragonfly:2,1;2,1;2,1;2: routers of 2 nodes, chassis of 2 routers (4 nodes), groups of 2
  // chassis. 4 cliques of 4 fill the 4 chassis; 2 tasks per node leave 8 cliques of 4 on 8 routers.
  const Allocation a = Allocation::full(Network::parse("dragonfly:2,1;2,1;2,1;2"), 1);
  const auto g = testing::clique_ring(4, 4, 10, 1, true);
  const Mapping m = run_chain("tree:start", core_algorithms(), g, a, MapOptions{});
  for (const auto& chassis : clique_groups(m, a, 4, 4, 2)) EXPECT_EQ(chassis.size(), 1u);
  const Allocation two = Allocation::full(Network::parse("dragonfly:2,1;2,1;2,1;2"), 2);
  const auto g8 = testing::clique_ring(8, 4, 10, 1, true);
  const Mapping m2 = run_chain("tree:start", core_algorithms(), g8, two, MapOptions{});
  for (const auto& routers : clique_groups(m2, two, 8, 4, 1)) EXPECT_EQ(routers.size(), 1u);
}

TEST(Greedy, MahdAndGgeGatherCliquesOffGrids) {
  const auto g = testing::clique_ring(4, 4, 10, 1, true);
  const Allocation a = Allocation::full(Network::parse("fattree:2;4,4;1,2;1,2"), 1);
  const double best = 4 * 240 + 32, launcher = metrics::hop_bytes(g, a, identity_mapping(16));
  // mahd weighs every placed neighbour; gge only follows the last one found breadth-first, so a
  // ring edge can lead it into the next clique before the current one is full.
  for (const auto& [algorithm, slack] : {std::pair{"mahd", 1.0}, std::pair{"emahd", 1.0}, std::pair{"gge", 1.3}}) {
    MapOptions options;
    options.objective = Objective::hop_bytes;
    const double hb = metrics::hop_bytes(g, a, run_chain(algorithm, core_algorithms(), g, a, options));
    EXPECT_LE(hb, slack * best) << algorithm;
    EXPECT_LT(hb, 0.65 * launcher) << algorithm;
  }
}

TEST(Refine, LowersTheMclOfAShuffledMappingOnEveryNetwork) {
  for (const char* spec : {"fattree:2;4,4;1,2;1,1", "dragonfly:3,2;2,1;3,1;2"}) {
    const Allocation a = Allocation::full(Network::parse(spec), 1);
    const auto g = testing::stencil_graph({4, static_cast<int>(a.num_slots()) / 4}, true, 100);
    for (const std::string& routing : a.network().routing_names()) {
      SCOPED_TRACE(std::string(spec) + " " + routing);
      const Mapping shuffled = testing::random_permutation(a.num_slots(), 5);
      MapOptions options;
      options.routing = topology::RoutingSpec::parse(routing);
      options.initial = &shuffled;
      options.time_budget_ms = 5000;  // refine:N stops after N attempts, well before
      const auto model = topology::make_routing_model(a.network(), routing);
      const double before = metrics::max_channel_load(g, a, shuffled, *model);
      const Mapping refined = run_chain("refine:20000", core_algorithms(), g, a, options);
      const double after = metrics::max_channel_load(g, a, refined, *model);
      EXPECT_LT(after, before);
    }
  }
}

}  // namespace
}  // namespace rankmap::mapping
