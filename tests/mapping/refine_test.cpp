// refine: never worse than its input, and strictly better than a deliberately bad one.
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include "factories.hpp"

#include <gtest/gtest.h>

namespace rankmap::mapping {
namespace {

using topology::Allocation;
using topology::Grid;

double mcl(const graph::CommGraph& g, const Allocation& a, const Mapping& m) {
  return metrics::max_channel_load(g, a, m, *topology::make_routing_model(a.grid(), "adaptive"));
}

Mapping refine(const graph::CommGraph& g, const Allocation& a, const Mapping& initial, Objective objective,
               std::string_view chain = "refine:20000") {
  MapOptions options;
  options.objective = objective;
  options.time_budget_ms = 1e6;  // the attempt count ends the search, so the result is reproducible
  options.initial = &initial;
  options.seed = 5;
  return run_chain(chain, core_algorithms(), g, a, options);
}

TEST(Refine, ImprovesAScrambledRingUnderMcl) {
  // A ring of 16 scrambled over torus:16: MCL is several bytes; 1 is reachable.
  const Allocation a = Allocation::full(Grid::parse("torus:16"), 1);
  const auto g = testing::ring_graph(16);
  const Mapping bad = testing::random_permutation(16, 9);
  const double before = mcl(g, a, bad);
  ASSERT_GT(before, 2);
  const Mapping better = refine(g, a, bad, Objective::mcl);
  EXPECT_TRUE(is_permutation(better));
  EXPECT_LT(mcl(g, a, better), before);
}

TEST(Refine, ImprovesAScrambledStencilUnderHopBytes) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x4"), 2);
  const auto g = testing::stencil_graph({8, 16}, true);
  const Mapping bad = testing::random_permutation(128, 2);
  const Mapping better = refine(g, a, bad, Objective::hop_bytes);
  EXPECT_LT(metrics::hop_bytes(g, a, better), 0.8 * metrics::hop_bytes(g, a, bad));
}

TEST(Refine, NeverWorseThanItsInput) {
  const Allocation a = Allocation::full(Grid::parse("mesh:4x4x2"), 2);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto g = testing::random_graph(64, 3, seed);
    const Mapping input = testing::random_permutation(64, seed + 100);
    EXPECT_LE(mcl(g, a, refine(g, a, input, Objective::mcl, "refine:3000")), mcl(g, a, input));
    EXPECT_LE(metrics::hop_bytes(g, a, refine(g, a, input, Objective::hop_bytes, "refine:3000")),
              metrics::hop_bytes(g, a, input));
  }
}

TEST(Refine, OptimalMappingIsReturnedUnchanged) {
  // The ring in order on torus:16 already has MCL 1, the least any mapping can have.
  const Allocation a = Allocation::full(Grid::parse("torus:16"), 1);
  const Mapping identity = identity_mapping(16);
  EXPECT_EQ(refine(testing::ring_graph(16), a, identity, Objective::mcl), identity);
}

TEST(Refine, SwapsInsideOneNodeAreNotTried) {
  // A single node: nothing can change, whatever the budget.
  const Allocation a = Allocation::full(Grid::parse("mesh:1"), 8);
  const Mapping input = testing::random_permutation(8, 1);
  EXPECT_EQ(refine(testing::complete_graph(8), a, input, Objective::mcl), input);
}

TEST(Refine, RefusesAnInitialMappingOfTheWrongSize) {
  const Allocation a = Allocation::full(Grid::parse("mesh:4"), 1);
  const Mapping wrong = {0, 1, 2};
  EXPECT_THROW(refine(testing::path_graph(4), a, wrong, Objective::mcl), InputError);
}

TEST(Refine, ChainedAfterMahdKeepsOrImprovesIt) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x4"), 4);
  const auto g = testing::random_graph(256, 4, 21);
  MapOptions options;
  options.time_budget_ms = 1e6;
  const Mapping mahd = run_chain("mahd", core_algorithms(), g, a, options);
  const Mapping chained = run_chain("mahd+refine:5000", core_algorithms(), g, a, options);
  EXPECT_LE(mcl(g, a, chained), mcl(g, a, mahd));
}

}  // namespace
}  // namespace rankmap::mapping
