// anneal: the tracked score matches a fresh evaluation, the Metropolis slack is honoured, and the
// search ends below refine's descent on a sweep.
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include "anneal.hpp"
#include "factories.hpp"
#include "objective_score.hpp"
#include "swap_state.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace rankmap::mapping {
namespace {

using topology::Allocation;
using topology::Grid;

/// A small NAS-BT-like sweep: q x q tasks, rank = j q + i, each sending to (i+1, j), (i, j+1) and
/// (i-1, j+1) in three phases, 2 tasks per node on torus:4x4x2.
struct SweepCase {
  static constexpr TaskId q = 8;
  Allocation alloc = Allocation::full(Grid::parse("torus:4x4x2"), 2);
  std::vector<graph::CommGraph> phases = testing::sweep_phases(q);
  graph::CommGraph summed = testing::summed_phases(phases);
  MapOptions options(const Mapping* initial, std::string_view routing = "dor") const {
    MapOptions o;
    o.phases = phases;
    o.routing = topology::RoutingSpec::parse(routing);
    o.initial = initial;
    o.time_budget_ms = 1e6;  // the attempt count ends the search, so the result is reproducible
    o.seed = 3;
    return o;
  }
  double phased_mcl(const Mapping& m) const {
    const auto routing = topology::make_routing_model(alloc.grid(), "dor");
    return metrics::phased_max_channel_load(phases, alloc, m, *routing);
  }
};

TEST(Anneal, TrackedScoreEqualsAFreshStateAfterEveryMove) {
  const SweepCase c;
  const Mapping start = testing::random_permutation(64, 4);
  const MapOptions options = c.options(nullptr);
  const Deadline no_deadline(1e6);
  detail::SwapState state(c.summed, c.alloc, options, start, no_deadline);
  ASSERT_TRUE(state.ready());
  std::mt19937_64 rng(11);
  int kept = 0, refused = 0;
  for (int k = 0; k < 400; ++k) {
    const TaskId a = static_cast<TaskId>(rng() % 64), b = static_cast<TaskId>(rng() % 64);
    if (state.node_of(a) == state.node_of(b)) continue;
    const double before = state.annealing_score();
    const double slack = k % 2 ? 0.0 : 50.0;
    if (!state.try_swap_within(a, b, slack)) {
      ++refused;
      EXPECT_EQ(state.annealing_score(), before);  // a refused swap leaves everything as it was
      continue;
    }
    ++kept;
    EXPECT_LE(state.annealing_score(), before + slack + 1e-9 * before);
    const detail::SwapState fresh(c.summed, c.alloc, options, state.mapping(), no_deadline);
    ASSERT_NEAR(state.annealing_score(), fresh.annealing_score(), 1e-9 * fresh.annealing_score());
    ASSERT_DOUBLE_EQ(state.objective(), c.phased_mcl(state.mapping()));
  }
  EXPECT_GT(kept, 10);
  EXPECT_GT(refused, 10);
}

TEST(Anneal, AnInfiniteSlackKeepsEverySwap) {
  const SweepCase c;
  const Deadline no_deadline(1e6);
  detail::SwapState state(c.summed, c.alloc, c.options(nullptr), identity_mapping(64), no_deadline);
  ASSERT_TRUE(state.ready());
  const int node_of_0 = state.node_of(0);
  EXPECT_TRUE(state.try_swap_within(0, 63, std::numeric_limits<double>::infinity()));
  EXPECT_EQ(state.node_of(63), node_of_0);
}

TEST(Anneal, TheCountWeightScalesOnlyTheChannelsAtTheMaximum) {
  const SweepCase c;
  const Deadline no_deadline(1e6);
  detail::SwapState state(c.summed, c.alloc, c.options(nullptr), identity_mapping(64), no_deadline);
  ASSERT_TRUE(state.ready());
  const double full = state.annealing_score();
  state.scale_count_weight(0);
  const double none = state.annealing_score();
  state.scale_count_weight(0.5);
  EXPECT_GT(full, none);
  EXPECT_NEAR(state.annealing_score() - none, (full - none) / 2, 1e-9 * full);
  EXPECT_GT(none, state.objective());  // the squared loads remain
}

TEST(Anneal, EndsBelowRefineOnASweep) {
  // From the identity, refine's descent stops where every single swap raises some phase's MCL;
  // annealing accepts such swaps early on and ends lower.
  const SweepCase c;
  const Mapping identity = identity_mapping(64);
  const Mapping refined = run_chain("refine:20000", core_algorithms(), c.summed, c.alloc, c.options(&identity));
  const Mapping annealed = run_chain("anneal:200000", core_algorithms(), c.summed, c.alloc, c.options(&identity));
  ASSERT_TRUE(is_permutation(annealed));
  EXPECT_LT(c.phased_mcl(annealed), c.phased_mcl(refined));
  EXPECT_LT(c.phased_mcl(annealed), c.phased_mcl(identity));
}

TEST(Anneal, IsReproducibleWithAnAttemptCount) {
  const SweepCase c;
  const Mapping start = testing::random_permutation(64, 8);
  const MapOptions options = c.options(&start);
  const Mapping first = run_chain("anneal:5000", core_algorithms(), c.summed, c.alloc, options);
  EXPECT_EQ(run_chain("anneal:5000", core_algorithms(), c.summed, c.alloc, options), first);
}

TEST(Anneal, NeverWorseThanItsInputUnderBothObjectives) {
  const Allocation a = Allocation::full(Grid::parse("mesh:4x4x2"), 2);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto g = testing::random_graph(64, 3, seed);
    const Mapping input = testing::random_permutation(64, seed + 100);
    MapOptions options;
    options.initial = &input;
    options.time_budget_ms = 1e6;
    const auto routing = topology::make_routing_model(a.grid(), options.routing);
    const Mapping by_mcl = run_chain("anneal:3000", core_algorithms(), g, a, options);
    EXPECT_LE(metrics::max_channel_load(g, a, by_mcl, *routing), metrics::max_channel_load(g, a, input, *routing));
    options.objective = Objective::hop_bytes;
    const Mapping by_hops = run_chain("anneal:3000", core_algorithms(), g, a, options);
    EXPECT_LE(metrics::hop_bytes(g, a, by_hops), metrics::hop_bytes(g, a, input));
  }
}

// auto takes the report's objective as the annealed start's score instead of scoring it again.
TEST(Anneal, ReportsTheObjectiveOfAChangedResult) {
  const SweepCase c;
  const Mapping start = testing::random_permutation(64, 8);
  MapOptions options = c.options(&start);
  options.parameter = "5000";
  detail::AnnealReport report;
  const Mapping better = detail::anneal_mapping(c.summed, c.alloc, options, report);
  ASSERT_NE(better, start);
  ASSERT_TRUE(report.score.has_value());
  const detail::Score fresh = detail::ObjectiveScorer(c.summed, c.alloc, options)(better);
  EXPECT_EQ(report.score->objective, fresh.objective);
  EXPECT_EQ(report.score->hop_bytes, fresh.hop_bytes);
  EXPECT_LT(report.score->objective, c.phased_mcl(start));
  EXPECT_EQ(better, run_chain("anneal:5000", core_algorithms(), c.summed, c.alloc, options));  // map_anneal's own
}

TEST(Anneal, ReportsNothingWhenItReturnsItsInput) {
  const SweepCase c;
  const Mapping start = testing::random_permutation(64, 8);
  MapOptions options = c.options(&start);
  options.time_budget_ms = 1e-3;  // no time to search, whichever check ends it
  detail::AnnealReport report;
  report.score = detail::Score{1.0, 1.0};
  EXPECT_EQ(detail::anneal_mapping(c.summed, c.alloc, options, report), start);
  EXPECT_FALSE(report.score.has_value());
}

TEST(Anneal, LowersTheHopBytesOfAScrambledStencil) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x4"), 2);
  const auto g = testing::stencil_graph({8, 16}, true);
  const Mapping bad = testing::random_permutation(128, 2);
  MapOptions options;
  options.objective = Objective::hop_bytes;
  options.initial = &bad;
  options.time_budget_ms = 1e6;
  const Mapping better = run_chain("anneal:50000", core_algorithms(), g, a, options);
  EXPECT_LT(metrics::hop_bytes(g, a, better), 0.8 * metrics::hop_bytes(g, a, bad));
}

TEST(Anneal, RefusesAnInitialMappingOfTheWrongSize) {
  const SweepCase c;
  const Mapping wrong = identity_mapping(8);
  EXPECT_THROW(run_chain("anneal", core_algorithms(), c.summed, c.alloc, c.options(&wrong)), InputError);
}

}  // namespace
}  // namespace rankmap::mapping
