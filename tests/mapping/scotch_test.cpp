// Tests of the scotch mapper: terminal numbering on instances with an obvious answer, ppn, and errors.
#include "factories.hpp"

#include <rankmap/mapping/offline.hpp>
#include <rankmap/metrics/dilation.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace rankmap::mapping {
namespace {

using topology::Allocation;
using topology::Grid;

/// A budget no loaded machine exhausts on these small instances: Scotch runs to its end in the
/// child process that a finite budget puts it in.
constexpr double kGenerousMs = 600000;

MapOptions generous() {
  MapOptions options;
  options.time_budget_ms = kGenerousMs;
  return options;
}

Mapping scotch(const graph::CommGraph& graph, const Allocation& alloc, const char* chain = "scotch") {
  return run_chain(chain, all_algorithms(), graph, alloc, generous());
}

TEST(Scotch, RingOnRingTorusIsOneHopPerEdge) {
  // 8-task ring on torus:8: the only optimal layouts are rotations and reflections, hop-bytes 16.
  const auto graph = testing::ring_graph(8);
  const Allocation alloc = Allocation::full(Grid::parse("torus:8"), 1);
  const Mapping m = scotch(graph, alloc);
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(graph, alloc, m), 16);
}

TEST(Scotch, TerminalsFollowTheAllocationsNodeOrder) {
  // The allocation lists the nodes of torus:8 backwards and ends with a hole: slots 0..5 sit on
  // nodes 7, 6, ..., 2. A 6-task path fits with every edge on one hop only if Scotch's terminal
  // numbers are translated back to these nodes correctly.
  const Grid grid = Grid::parse("torus:8");
  const std::vector<NodeId> nodes = {7, 6, 5, 4, 3, 2};
  const Allocation alloc = Allocation::of_nodes(grid, nodes, 1);
  const auto graph = testing::path_graph(6);
  EXPECT_EQ(metrics::dilation(graph, alloc, scotch(graph, alloc)).max, 1);
}

TEST(Scotch, LinesOfNodesListedOutOfOrderOnEveryKindOfArchitecture) {
  // The allocations are lines of nodes (a row of a 2D mesh, a column of a 3D mesh, a torus row of
  // a mixed grid, which Scotch sees through SCOTCH_archBuild2) listed in scrambled order. A path
  // (or a ring on the torus row) then has a one-hop layout, which Scotch finds whatever its seed,
  // and which a wrong translation of Scotch's part numbers back to nodes would break.
  struct Case {
    const char* grid;
    std::vector<NodeId> nodes;
    graph::CommGraph graph;
  };
  const std::vector<Case> cases = {{"mesh:4x6", {14, 12, 17, 13, 16, 15}, testing::path_graph(6)},
                                   {"mesh:2x3x4", {22, 20, 23, 21}, testing::path_graph(4)},
                                   {"grid:3x5:torus=01", {7, 5, 9, 6, 8}, testing::ring_graph(5)}};
  for (const Case& c : cases)
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const Allocation alloc = Allocation::of_nodes(Grid::parse(c.grid), c.nodes, 1);
      MapOptions options = generous();
      options.seed = seed;
      const Mapping m = run_chain("scotch", all_algorithms(), c.graph, alloc, options);
      EXPECT_EQ(metrics::dilation(c.graph, alloc, m).max, 1) << c.grid << " seed " << seed;
    }
}

TEST(Scotch, FillsNodesOfUnequalSizeExactly) {
  // Nodes of 4, 4 and 2 slots; every mapping must be a permutation, which forces the 4/4/2 split.
  const Allocation alloc = Allocation::of_nodes(Grid::parse("mesh:4x4"), std::vector<NodeId>{5, 6, 9}, 4).first_slots(10);
  const auto graph = testing::random_graph(10, 3, 4);
  const Mapping m = scotch(graph, alloc);
  EXPECT_TRUE(is_permutation(m));
}

TEST(Scotch, ConcentratesCliquesIntoNodes) {
  // Four 4-task cliques, joined in a ring by light edges, on 4 nodes of 4 slots: each clique must
  // fill one node, leaving only the 4 light ring edges (1 byte each way) on the network, one hop
  // each on the 2x2 torus: hop-bytes 8.
  const auto graph = testing::clique_ring(4, 4, 100, 1, false);
  const Allocation alloc = Allocation::full(Grid::parse("torus:2x2"), 4);
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(graph, alloc, scotch(graph, alloc)), 8);
}

TEST(Scotch, TheSameSeedGivesTheSameMappingWhateverTheThreads) {
  // Scotch's multithreaded coarsening is not reproducible: with two threads, three runs on a
  // 1,024-task halo gave three mappings (BENCHMARKS.md, "Simulated network: fat-trees and dragonflies").
  const auto graph = testing::random_graph(1024, 6, 3);
  const Allocation alloc = Allocation::full(topology::Network::parse("fattree:3;16,8,8;1,8,8;1,1,1"), 1);
  MapOptions options = generous();
  options.threads = 2;
  const Mapping first = run_chain("scotch", all_algorithms(), graph, alloc, options);
  for (int run = 0; run < 3; ++run)
    EXPECT_EQ(run_chain("scotch", all_algorithms(), graph, alloc, options), first) << "run " << run;
}

TEST(Scotch, StrategyParameter) {
  const auto graph = testing::ring_graph(6);
  const Allocation alloc = Allocation::full(Grid::parse("torus:6"), 1);
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(graph, alloc, scotch(graph, alloc, "scotch:quality")), 12);
  EXPECT_THROW(scotch(graph, alloc, "scotch:best"), InputError);
}

TEST(ScotchDeadline, AGenerousBudgetGivesTheMappingOfScotchInThisProcess) {
  // An infinite budget runs Scotch in this process, a finite one in a child process; with one
  // thread and one seed Scotch is deterministic, so both must agree slot for slot. The second
  // allocation has nodes of 4, 4 and 2 slots, where filler vertices and fit_capacities take part.
  struct Case {
    graph::CommGraph graph;
    Allocation alloc;
  };
  const std::vector<Case> cases = {
      {testing::stencil_graph({8, 8, 8}, true), Allocation::full(Grid::parse("torus:4x4x4"), 8)},
      {testing::random_graph(10, 3, 4),
       Allocation::of_nodes(Grid::parse("mesh:4x4"), std::vector<NodeId>{5, 6, 9}, 4).first_slots(10)}};
  for (const Case& c : cases)
    for (const char* chain : {"scotch", "scotch:quality"}) {
      MapOptions in_process;
      in_process.time_budget_ms = std::numeric_limits<double>::infinity();
      const Mapping expected = run_chain(chain, all_algorithms(), c.graph, c.alloc, in_process);
      Choice choice;
      MapOptions forked = generous();
      forked.choice = &choice;
      EXPECT_EQ(run_chain(chain, all_algorithms(), c.graph, c.alloc, forked), expected) << chain;
      EXPECT_EQ(choice.chosen, "") << "a finished Scotch names no fallback";
      EXPECT_NE(expected, identity_mapping(c.graph.num_tasks())) << "the instance must not make the test trivial";
    }
}

/// 16,384 tasks on torus:16x16x16 with 4 per node, where Scotch took 4.5 s of CPU time in the
/// deadline benchmark, under a budget of 20 ms that no machine maps it in.
struct StoppedScotch {
  graph::CommGraph graph = testing::stencil_graph({32, 32, 16}, true);
  Allocation alloc = Allocation::full(Grid::parse("torus:16x16x16"), 4);
  Choice choice;
  MapOptions options = [this] {
    MapOptions o;
    o.time_budget_ms = 20;
    o.choice = &choice;
    return o;
  }();
  Mapping run(const char* chain) const { return run_chain(chain, all_algorithms(), graph, alloc, options); }
};

TEST(ScotchDeadline, ATinyBudgetStopsScotchAndReturnsTheLaunchersOrder) {
  StoppedScotch s;
  EXPECT_EQ(s.run("scotch"), identity_mapping(16384));
  EXPECT_EQ(s.choice.chosen, "identity");
  // The budget in the note is what run_chain had left of the 20 ms, so only the rest is checked.
  EXPECT_TRUE(s.choice.detail.starts_with("scotch stopped at the deadline (budget ")) << s.choice.detail;
  EXPECT_TRUE(s.choice.detail.ends_with(" ms); returned the launcher's order")) << s.choice.detail;
}

TEST(ScotchDeadline, StoppedInAChainItReturnsThePreviousStagesMapping) {
  // hilbert ignores budgets, so whatever time it takes, scotch then gets at most 20 ms and returns
  // hilbert's mapping.
  StoppedScotch s;
  const Mapping chained = s.run("hilbert+scotch");
  EXPECT_EQ(chained, s.run("hilbert"));
  EXPECT_NE(chained, identity_mapping(16384));
  EXPECT_EQ(s.choice.chosen, "initial");
}

}  // namespace
}  // namespace rankmap::mapping
