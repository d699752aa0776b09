// RAHTM end to end: valid permutations on every kind of allocation, determinism, parameters.
#include "rahtm/rahtm.hpp"

#include <rankmap/graph/patterns.hpp>
#include <rankmap/mapping/offline.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/topology/allocation_generators.hpp>

#include "factories.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace rankmap::rahtm {
namespace {

using topology::Allocation;
using topology::Grid;

// Cheap settings: the cube problems are tested on their own, here only the pipeline matters. The
// budget is ample, so that no deadline changes what these tests see.
mapping::MapOptions quick(const std::string& parameter = "milp=off,kicks=20") {
  mapping::MapOptions o;
  o.parameter = parameter + ",beam=8";
  o.threads = 2;
  o.time_budget_ms = 1e9;
  return o;
}

struct Case {
  std::string name;
  Allocation alloc;
};

std::vector<Case> allocations() {
  std::vector<Case> cases;
  cases.push_back({"torus444_ppn4", Allocation::full(Grid::parse("torus:4x4x4"), 4)});
  cases.push_back({"bgq_like_442", Allocation::full(Grid::parse("torus:4x4x2"), 1)});
  cases.push_back({"mesh35_ppn2", Allocation::full(Grid::parse("mesh:3x5"), 2)});
  cases.push_back({"torus66", Allocation::full(Grid::parse("torus:6x6"), 1)});
  const Grid big = Grid::parse("torus:8x8x8");
  cases.push_back({"fragmented", Allocation::of_nodes(big, topology::fragmented_nodes(big, 40, 3), 3)});
  cases.push_back({"partial_last_node", Allocation::full(Grid::parse("torus:4x4"), 3).first_slots(40)});
  cases.push_back({"one_slot", Allocation::full(Grid::parse("mesh:1"), 1)});
  cases.push_back({"two_slots", Allocation::full(Grid::parse("torus:2"), 1)});
  return cases;
}

TEST(Rahtm, ReturnsAPermutationOnEveryKindOfAllocation) {
  for (const Case& c : allocations()) {
    const TaskId n = c.alloc.num_slots();
    for (const auto& g : {testing::random_graph(n, 4, 5), testing::path_graph(n)}) {
      RahtmReport report;
      const mapping::Mapping m = run_rahtm(g, c.alloc, quick(), &report);
      EXPECT_EQ(static_cast<TaskId>(m.size()), n) << c.name;
      EXPECT_TRUE(mapping::is_permutation(m)) << c.name;
    }
  }
}

TEST(Rahtm, TilesAStencilAndBeatsTheLauncherOrder) {
  // A periodic 16x16 stencil on torus:4x4x4 with 4 slots per node: row-major placement puts
  // four consecutive tasks of a row on a node, so every node talks to 6 others.
  const auto g = graph::make_pattern({.name = "stencil2d", .dims = {16, 16}, .periodic = true});
  const Allocation alloc = Allocation::full(Grid::parse("torus:4x4x4"), 4);
  const auto routing = topology::make_routing_model(alloc.grid(), "adaptive");
  RahtmReport report;
  const mapping::Mapping m = run_rahtm(g, alloc, quick("kicks=50"), &report);
  ASSERT_TRUE(mapping::is_permutation(m));
  EXPECT_EQ(report.clustering.rfind("tiling 16x16:", 0), 0u) << report.clustering;
  const double identity = metrics::max_channel_load(g, alloc, mapping::identity_mapping(256), *routing);
  EXPECT_LT(report.mcl, identity);
  EXPECT_DOUBLE_EQ(report.mcl, metrics::max_channel_load(g, alloc, m, *routing));
  EXPECT_GT(report.cube_problems, report.cube_solved) << "interior tiles share one solution";
}

TEST(Rahtm, FallsBackToMetisWithoutGridStructure) {
  const Allocation alloc = Allocation::full(Grid::parse("torus:4x4"), 4);
  RahtmReport report;
  const mapping::Mapping m = run_rahtm(testing::random_graph(64, 3, 9), alloc, quick(), &report);
  EXPECT_TRUE(mapping::is_permutation(m));
  EXPECT_EQ(report.clustering, "metis");
}

TEST(Rahtm, IsDeterministicForASeedWhateverTheThreads) {
  const auto g = graph::make_pattern({.name = "nas-bt", .dims = {}, .ranks = 64});
  const Allocation alloc = Allocation::full(Grid::parse("torus:4x4x2"), 2);
  mapping::MapOptions options = quick("kicks=30,milp-nodes=20");
  options.seed = 7;
  const mapping::Mapping first = run_rahtm(g, alloc, options);
  EXPECT_EQ(run_rahtm(g, alloc, options), first);
  options.threads = 1;
  EXPECT_EQ(run_rahtm(g, alloc, options), first);
}

TEST(Rahtm, WithNoTimeBudgetSkipsMilpsAndMergesButStillMaps) {
  const auto g = graph::make_pattern({.name = "nas-bt", .dims = {}, .ranks = 64});
  // Five dimensions: cubes of 4 and of 3 dimensions make two hierarchies.
  const Allocation alloc = Allocation::full(Grid::parse("torus:2x2x2x2x2"), 2);
  mapping::MapOptions options = quick("kicks=10,milp-nodes=5");  // MILPs on
  RahtmReport ample;
  EXPECT_TRUE(mapping::is_permutation(run_rahtm(g, alloc, options, &ample)));
  EXPECT_EQ(ample.milp_skipped, 0);
  EXPECT_GT(ample.cube_proven, 0);
  EXPECT_EQ(ample.merges_cut, 0);
  EXPECT_EQ(ample.narrowest_beam, 8);
  EXPECT_EQ(ample.hierarchies_skipped, 0);
  ASSERT_GT(ample.hierarchies, 1);
  options.time_budget_ms = 0;
  RahtmReport none;
  const mapping::Mapping m = run_rahtm(g, alloc, options, &none);
  EXPECT_EQ(m.size(), 64u);
  EXPECT_TRUE(mapping::is_permutation(m));
  EXPECT_GT(none.milp_skipped, 0);
  EXPECT_EQ(none.cube_proven, 0);
  EXPECT_GT(none.merges_cut, 0);
  EXPECT_EQ(none.hierarchies, 1);
  EXPECT_EQ(none.hierarchies_skipped, ample.hierarchies - 1);
  const auto routing = topology::make_routing_model(alloc.grid(), "adaptive");
  EXPECT_DOUBLE_EQ(none.mcl, metrics::max_channel_load(g, alloc, m, *routing));
}

TEST(Rahtm, ReportsProgressUpToOneOnTheCallingThread) {
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<double> seen;
  mapping::MapOptions options = quick();
  options.progress = [&](double f) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    seen.push_back(f);
  };
  run_rahtm(testing::grid_graph(8, 8), Allocation::full(Grid::parse("torus:4x4"), 4), options);
  ASSERT_FALSE(seen.empty());
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_DOUBLE_EQ(seen.back(), 1.0);
}

TEST(Rahtm, IsRegisteredAndRunsInAChain) {
  ASSERT_NE(mapping::find_algorithm(mapping::all_algorithms(), "rahtm"), nullptr);
  const Allocation alloc = Allocation::full(Grid::parse("mesh:4x4"), 2);
  const auto m = mapping::run_chain("rahtm:cluster=metis,milp=off", mapping::all_algorithms(),
                                    testing::grid_graph(4, 8), alloc, quick());
  EXPECT_TRUE(mapping::is_permutation(m));
}

TEST(Rahtm, RefusesBadParametersByName) {
  const Allocation alloc = Allocation::full(Grid::parse("mesh:4x4"), 1);
  const auto g = testing::grid_graph(4, 4);
  auto message = [&](const std::string& parameter) {
    try {
      run_rahtm(g, alloc, quick(parameter));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("bogus=1").find("unknown parameter 'bogus'"), std::string::npos);
  EXPECT_NE(message("cube=9").find("cube=9"), std::string::npos);
  EXPECT_NE(message("grid=3x3").find("grid=3x3 has 9 cells"), std::string::npos);
  EXPECT_NE(message("milp").find("not of the form key=value"), std::string::npos);
  EXPECT_THROW(run_rahtm(testing::grid_graph(4, 5), alloc, quick()), InputError);
}

}  // namespace
}  // namespace rankmap::rahtm
