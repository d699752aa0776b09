// Every core algorithm, and the runtime's default chain, returns a permutation on every kind of instance.
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/node_flows.hpp>

#include "factories.hpp"

#include <gtest/gtest.h>

#include <cctype>

namespace rankmap::mapping {
namespace {

using topology::Allocation;
using topology::Grid;

struct Instance {
  std::string name;
  graph::CommGraph graph;
  Allocation alloc;
};

/// `count` distinct random nodes of the grid, in random order.
std::vector<NodeId> random_nodes(const Grid& grid, int count, std::uint64_t seed) {
  const auto perm = testing::random_permutation(static_cast<SlotId>(grid.num_nodes()), seed);
  return std::vector<NodeId>(perm.begin(), perm.begin() + count);
}

std::vector<Instance> instances() {
  std::vector<Instance> v;
  const auto add = [&](std::string name, graph::CommGraph g, Allocation a) {
    v.push_back({std::move(name), std::move(g), std::move(a)});
  };
  add("one_task", graph::CommGraph::from_edges(1, {}), Allocation::full(Grid::parse("mesh:1"), 1));
  add("two_tasks", testing::path_graph(2), Allocation::full(Grid::parse("torus:2"), 1));
  add("prime_line", testing::random_graph(7, 3, 1), Allocation::full(Grid::parse("mesh:7"), 1));
  const Grid t44 = Grid::parse("torus:4x4");
  add("prime_partial", testing::random_graph(13, 4, 2), Allocation::of_nodes(t44, random_nodes(t44, 13, 3), 1));
  add("ppn4_random", testing::random_graph(64, 4, 4), Allocation::full(t44, 4));
  add("ppn4_stencil", testing::stencil_graph({8, 8}, true), Allocation::full(t44, 4));
  add("ppn3_truncated_prime", testing::random_graph(89, 3, 5), Allocation::full(Grid::parse("torus:4x4x2"), 3).first_slots(89));
  add("ppn2_stencil_truncated", testing::stencil_graph({5, 7}, false), Allocation::full(Grid::parse("mesh:3x3x2"), 2).first_slots(35));
  // Two disconnected 2x2 blocks in opposite corners of an 8x8 mesh, two slots per node.
  const Grid m88 = Grid::parse("mesh:8x8");
  const std::vector<NodeId> pieces = {63, 0, 1, 8, 9, 54, 55, 62};
  add("fragmented_ppn2", testing::random_graph(16, 3, 6), Allocation::of_nodes(m88, pieces, 2));
  // Nodes with 1 to 3 slots, listed out of order (a hand-made slot list).
  add("uneven_ppn", testing::random_graph(11, 2, 7), Allocation(m88, {9, 2, 9, 40, 2, 63, 9, 40, 5, 6, 6}));
  add("no_edges", graph::CommGraph::from_edges(10, {}), Allocation::full(Grid::parse("mesh:5"), 2));
  add("six_dims", testing::random_graph(64, 3, 8), Allocation::full(Grid::parse("torus:2x2x2x2x2x2"), 1));
  add("star", testing::star_graph(31), Allocation::of_nodes(Grid::parse("torus:4x4x4"), random_nodes(Grid::parse("torus:4x4x4"), 31, 9), 1));
  add("complete_ppn2", testing::complete_graph(12), Allocation::full(Grid::parse("mesh:2x3"), 2));
  return v;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const AlgorithmInfo& a : core_algorithms()) names.emplace_back(a.name);
  for (const char* chain : {"mahd+refine", "mahd:direct+refine", "emahd:direct,4", "gge+refine"})
    names.emplace_back(chain);
  return names;
}

class EveryAlgorithm : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryAlgorithm, ReturnsAPermutationOnEveryInstance) {
  for (const Instance& instance : instances()) {
    SCOPED_TRACE(instance.name);
    MapOptions options;
    options.time_budget_ms = 20;
    const Mapping m = run_chain(GetParam(), core_algorithms(), instance.graph, instance.alloc, options);
    ASSERT_EQ(static_cast<TaskId>(m.size()), instance.graph.num_tasks());
    EXPECT_TRUE(is_permutation(m));
    EXPECT_NO_THROW(metrics::check_mapping(instance.graph, instance.alloc, m));
  }
}

TEST_P(EveryAlgorithm, HopBytesObjectiveAndDorRoutingAlsoGivePermutations) {
  for (const Instance& instance : instances()) {
    SCOPED_TRACE(instance.name);
    MapOptions options;
    options.time_budget_ms = 10;
    options.objective = Objective::hop_bytes;
    options.routing = topology::RoutingSpec::parse("dor");
    options.threads = 2;
    const Mapping m = run_chain(GetParam(), core_algorithms(), instance.graph, instance.alloc, options);
    EXPECT_TRUE(is_permutation(m));
  }
}

INSTANTIATE_TEST_SUITE_P(Mapping, EveryAlgorithm, ::testing::ValuesIn(algorithm_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(Parameters, UnknownParametersAreRefusedByName) {
  const auto g = testing::path_graph(4);
  const Allocation a = Allocation::full(Grid::parse("mesh:4"), 1);
  for (const char* chain : {"mahd:fast", "mahd:3", "emahd:0", "refine:x", "gge:1", "rcm:1", "hilbert:2", "dimorder-best:-2",
                            "dimorder:AB"}) {
    SCOPED_TRACE(chain);
    EXPECT_THROW(run_chain(chain, core_algorithms(), g, a, {}), InputError);
  }
}

}  // namespace
}  // namespace rankmap::mapping
