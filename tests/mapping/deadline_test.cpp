// Deadlines without clocks: a budget that has run out before the search starts makes every greedy
// stop at once and fill the rest in the launcher's order, and every mapper and chain still
// returns a permutation. Nothing here measures time.
#include <rankmap/mapping/mapping.hpp>

#include "factories.hpp"
#include "greedy_embedding.hpp"
#include "slot_layout.hpp"

#include <gtest/gtest.h>

namespace rankmap::mapping {
namespace {

using topology::Allocation;
using topology::Grid;

Mapping run(std::string_view chain, const graph::CommGraph& g, const Allocation& a, double budget_ms, int threads = 1) {
  MapOptions options;
  options.time_budget_ms = budget_ms;
  options.threads = threads;
  return run_chain(chain, core_algorithms(), g, a, options);
}

/// mesh:3 with 2, 2 and 1 slots.
Allocation uneven_line() {
  const std::vector<NodeId> nodes{0, 1, 2};
  return Allocation::of_nodes(Grid::parse("mesh:3"), nodes, 2).first_slots(5);
}

TEST(GreedyDeadline, APassedDeadlineCutsTheRunAndFillsTheNodesInOrder) {
  // Demand 1 on capacities 2, 2, 1: cut at once, items 0..4 fill nodes 0, 0, 1, 1, 2.
  const graph::CommGraph g = testing::path_graph(5).symmetrized();
  detail::PlacementProblem problem;
  problem.graph = &g;
  problem.demand.assign(5, 1);
  problem.capacity = {2, 2, 1};
  const Allocation a = uneven_line();
  ASSERT_EQ(detail::node_slot_counts(a), problem.capacity);
  const detail::GreedyPlacer placer(a, problem, detail::NextItem::most_connected, detail::Target::placed_neighbours);
  const Deadline passed(0);
  const detail::Placement cut = placer.place(-1, detail::GreedyVariant::by_id, &passed);
  EXPECT_TRUE(cut.cut);
  EXPECT_EQ(cut.node_of_item, (std::vector<int>{0, 0, 1, 1, 2}));
  const detail::Placement whole = placer.place(-1, detail::GreedyVariant::by_id, nullptr);
  EXPECT_FALSE(whole.cut);
}

TEST(GreedyDeadline, ExactFitGroupsTakeEmptyNodesOfTheirSize) {
  // Groups of sizes 1, 2, 2 onto nodes of 2, 2, 1 slots: the 1 goes to node 2, the 2s to 0 and 1.
  const graph::CommGraph g = testing::path_graph(3).symmetrized();
  detail::PlacementProblem problem;
  problem.graph = &g;
  problem.demand = {1, 2, 2};
  problem.capacity = {2, 2, 1};
  problem.exact_fit = true;
  const Allocation a = uneven_line();
  const detail::GreedyPlacer placer(a, problem, detail::NextItem::most_connected, detail::Target::placed_neighbours);
  const Deadline passed(0);
  EXPECT_EQ(placer.place(-1, detail::GreedyVariant::by_id, &passed).node_of_item, (std::vector<int>{2, 0, 1}));
}

TEST(MahdDeadline, StopsAtOnceWithNoBudgetAndStillReturnsAPermutation) {
  // One slot per node and direct placement: a greedy cut before its first task leaves every task
  // in the launcher's order, which the search itself does not give on this graph.
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x2"), 1);
  const auto g = testing::random_graph(32, 3, 11);
  for (const char* greedy : {"mahd:direct", "emahd:direct", "gge"}) {
    EXPECT_EQ(run(greedy, g, a, 0), identity_mapping(32)) << greedy;
    EXPECT_EQ(run(greedy, g, a, 0, 2), identity_mapping(32)) << greedy << " on 2 threads";
    EXPECT_NE(run(greedy, g, a, 1e6), identity_mapping(32)) << greedy;
  }
}

TEST(MahdDeadline, ConcentratedGroupsAreStillAPermutationWhenCut) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4"), 4);
  const auto g = testing::random_graph(64, 4, 2);
  for (const char* greedy : {"mahd", "emahd"}) {
    const Mapping m = run(greedy, g, a, 0);
    EXPECT_EQ(m.size(), 64u) << greedy;
    EXPECT_TRUE(is_permutation(m)) << greedy;
  }
}

TEST(Deadline, EveryCoreMapperAndChainReturnsAPermutationWithNoBudget) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4"), 2);
  const auto g = testing::stencil_graph({8, 4}, true);
  std::vector<std::string> chains;
  for (const AlgorithmInfo& info : core_algorithms()) chains.emplace_back(info.name);
  for (const char* chain : {"mahd+refine", "emahd+refine", "split+refine", "grasp+anneal"}) chains.emplace_back(chain);
  for (const std::string& chain : chains) {
    const Mapping m = run(chain, g, a, 0);
    EXPECT_EQ(m.size(), 32u) << chain;
    EXPECT_TRUE(is_permutation(m)) << chain;
  }
}

}  // namespace
}  // namespace rankmap::mapping
