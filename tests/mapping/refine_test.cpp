// refine: never worse than its input, and strictly better than a deliberately bad one.
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include "factories.hpp"
#include "objective_score.hpp"
#include "refine.hpp"
#include "swap_state.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <vector>

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

TEST(Refine, StopsAtALocalOptimumLongBeforeItsBudget) {
  // The ring in order on torus:16 (MCL 1, every flow one hop) admits no better swap, so each of
  // the three phases makes max(2000, 2 P) = 2000 fruitless random attempts, then one sweep of the
  // near moves: for task a, the nodes of a-1 and a+1 and their grid neighbours other than a's
  // own, a-2, a-1, a+1, a+2: 4 attempts per task, 64 per sweep. Without the early stop this
  // call would search for its whole budget of 1000 s.
  const Allocation a = Allocation::full(Grid::parse("torus:16"), 1);
  const Mapping identity = identity_mapping(16);
  MapOptions options;
  options.time_budget_ms = 1e6;
  options.initial = &identity;
  detail::RefineReport report;
  EXPECT_EQ(detail::refine_mapping(testing::ring_graph(16), a, options, report), identity);
  EXPECT_FALSE(report.objective.has_value());
  EXPECT_TRUE(report.converged);
  EXPECT_EQ(report.sweeps, 3);
  EXPECT_EQ(report.kept, 0);
  EXPECT_EQ(report.attempts, 3 * (2000 + 64));
}

TEST(Refine, ConvergesFromAScrambledMappingUnderBothObjectives) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4"), 2);
  const auto g = testing::stencil_graph({4, 8}, true);
  const Mapping bad = testing::random_permutation(32, 3);
  for (Objective objective : {Objective::mcl, Objective::hop_bytes}) {
    MapOptions options;
    options.objective = objective;
    options.time_budget_ms = 1e6;
    options.initial = &bad;
    detail::RefineReport report;
    const Mapping better = detail::refine_mapping(g, a, options, report);
    EXPECT_TRUE(report.converged);
    EXPECT_GT(report.kept, 0);
    // One per phase at least (three under MCL, one under hop-bytes), the last of each keeping nothing.
    EXPECT_GE(report.sweeps, objective == Objective::mcl ? 3 : 1);
    EXPECT_NE(better, bad);
    // Exactly what the scorer gives: auto takes it as the result's score and compares it with the
    // launcher's order's.
    ASSERT_TRUE(report.objective.has_value());
    EXPECT_EQ(*report.objective, detail::ObjectiveScorer(g, a, options)(better).objective);
  }
}

/// A refine of 20,000 attempts from a random start of a periodic 4x8 stencil on torus:4x4 with
/// 2 per node, where a caller tells refine what it knows of the input (KnownInput).
struct KnownInputCase {
  KnownInputCase() {
    options.time_budget_ms = 1e6;
    options.initial = &bad;
    options.parameter = "20000";
  }
  KnownInputCase(const KnownInputCase&) = delete;  // options.initial points at its own `bad`
  const Allocation a = Allocation::full(Grid::parse("torus:4x4"), 2);
  const graph::CommGraph g = testing::stencil_graph({4, 8}, true);
  const Mapping bad = testing::random_permutation(32, 3);
  MapOptions options;
};

// auto hands refine its start's score: the search must be the one refine runs when it measures the
// input itself, and the result is still checked against the objective it was given.
TEST(Refine, AKnownInputGivesTheSameSearchAndBoundsTheResult) {
  KnownInputCase c;
  auto& [a, g, bad, options] = c;
  detail::RefineReport measured, told, misled;
  const Mapping found = detail::refine_mapping(g, a, options, measured);
  ASSERT_NE(found, bad);
  const detail::KnownInput truth{detail::ObjectiveScorer(g, a, options)(bad).objective, 1.0};
  EXPECT_EQ(detail::refine_mapping(g, a, options, told, &truth), found);
  EXPECT_EQ(told.objective, measured.objective);
  EXPECT_EQ(told.kept, measured.kept);
  // An input said to be better than anything found is returned as it is.
  const detail::KnownInput unbeatable{*measured.objective / 2, 1.0};
  EXPECT_EQ(detail::refine_mapping(g, a, options, misled, &unbeatable), bad);
  EXPECT_FALSE(misled.objective.has_value());
  // With phases the objective is a sum that one number cannot stand for: refine measures it.
  const std::vector<graph::CommGraph> phases{g};
  options.phases = phases;
  EXPECT_NE(detail::refine_mapping(g, a, options, misled, &unbeatable), bad);
}

// auto keeps the loads its scoring of a start routed: refine must search from them as from the
// loads it would route itself, and must take them rather than route again.
TEST(Refine, TheInputsLoadsGivenSpareRoutingItAndGiveTheSameSearch) {
  KnownInputCase c;
  auto& [a, g, bad, options] = c;
  detail::ObjectiveScorer::Loads loads;
  const double objective = detail::ObjectiveScorer(g, a, options)(bad, &loads).objective;
  ASSERT_NE(loads, nullptr);
  EXPECT_EQ(metrics::max_channel_load(*loads), objective);
  // An evaluation said to take a tenth of the budget leaves no time to descend on hop-bytes first,
  // so the search starts from the input itself.
  const detail::KnownInput measured{objective, 1e5};
  const detail::KnownInput routed{objective, 1e5, loads, 1e5};
  detail::RefineReport by_routing, by_loads;
  const Mapping found = detail::refine_mapping(g, a, options, by_routing, &measured);
  ASSERT_NE(found, bad);
  EXPECT_EQ(detail::refine_mapping(g, a, options, by_loads, &routed), found);
  EXPECT_EQ(by_loads.objective, by_routing.objective);
  EXPECT_EQ(by_loads.kept, by_routing.kept);

  // The state takes the loads it is given as they are, and their routing's time as its evaluation's.
  std::vector<double> made_up(loads->size(), 0.0);
  made_up[3] = 42;
  const detail::SwapState::RoutedLoads given{made_up, 7.5};
  const detail::SwapState state(g, a, options, bad, Deadline(1e6), &given);
  ASSERT_TRUE(state.ready());
  EXPECT_EQ(state.phase_mcls(), std::vector<double>{42});
  EXPECT_EQ(state.evaluation_ms(), 7.5);
  // With phases the loads of the whole graph are not the phases': the state routes them.
  const std::vector<graph::CommGraph> phases{g};
  options.phases = phases;
  const detail::SwapState phased(g, a, options, bad, Deadline(1e6), &given);
  EXPECT_EQ(phased.phase_mcls(), std::vector<double>{objective});
}

// auto refines a start on a thread that would otherwise wait for the others, and stops it when
// they are done: a stopped search tries no swap more, under both objectives, and returns its input
// when it had found nothing yet.
TEST(Refine, AStopSetEndsTheSearchAsItsBudgetWould) {
  KnownInputCase c;
  auto& [a, g, bad, options] = c;
  for (const Objective objective : {Objective::mcl, Objective::hop_bytes}) {
    options.objective = objective;
    detail::RefineReport running, stopped;
    const std::atomic<bool> go{false}, stop{true};
    EXPECT_NE(detail::refine_mapping(g, a, options, running, nullptr, &go), bad);
    EXPECT_GT(running.attempts, 0);
    EXPECT_EQ(detail::refine_mapping(g, a, options, stopped, nullptr, &stop), bad);
    EXPECT_EQ(stopped.attempts, 0);
  }
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

/// mesh:5 with one task per node in order, task 3 sending 2 bytes to task 2 and task 0 sending 1
/// byte to task 4. Worked by hand: channel (3,-) carries 2 bytes and channels (0,+) to (3,+)
/// carry 1, so MCL = 2, hop-bytes = 2 * 1 + 1 * 4 = 6 and the sum of squared loads is 4 + 4 * 1 = 8.
/// Swapping tasks 0 and 3 routes 3 -> 2 over (0,+), (1,+) and 0 -> 4 over (3,+): MCL still 2,
/// hop-bytes 2 * 2 + 1 * 1 = 5, squared loads 4 + 4 + 1 = 9. The swap is MCL-neutral and shortens
/// routes but concentrates load. The best any mapping can do is MCL 2 (the 2-byte flow crosses
/// some channel) and hop-bytes 3 (both flows one hop); every mapping that no single swap improves
/// under (MCL, hop-bytes) has exactly these (checked by enumerating the 120 mappings).
struct NeutralSwapCase {
  Allocation alloc = Allocation::full(Grid::parse("mesh:5"), 1);
  graph::CommGraph graph = graph::CommGraph::from_edges(5, {{3, 2, 2.0}, {0, 4, 1.0}});
  Mapping identity = identity_mapping(5);
};

TEST(Refine, KeepsAnMclNeutralSwapThatLowersHopBytes) {
  const NeutralSwapCase c;
  MapOptions options;
  const Deadline no_deadline(1e6);
  detail::SwapState state(c.graph, c.alloc, options, c.identity, no_deadline);
  ASSERT_TRUE(state.ready());
  ASSERT_EQ(state.objective(), 2);
  EXPECT_TRUE(state.try_swap(0, 3));
  EXPECT_EQ(state.objective(), 2);
  EXPECT_EQ(state.hop_bytes(), 5);
  EXPECT_EQ(metrics::hop_bytes(c.graph, c.alloc, state.mapping()), 5);
  EXPECT_EQ(state.mapping(), (Mapping{3, 1, 2, 0, 4}));
}

// Refine returns its input when its final check runs past the budget, so the check must say so;
// hop-bytes need no routing and are always computed.
TEST(Refine, AnExactObjectivePastTheDeadlineIsNoneUnderMcl) {
  const NeutralSwapCase c;
  MapOptions options;
  const Deadline no_deadline(1e6);
  const Deadline passed(0);
  detail::SwapState state(c.graph, c.alloc, options, c.identity, no_deadline);
  ASSERT_TRUE(state.ready());
  EXPECT_EQ(state.exact_objective(no_deadline), 2);
  EXPECT_EQ(state.exact_objective(passed), std::nullopt);
  options.objective = Objective::hop_bytes;
  detail::SwapState hop_state(c.graph, c.alloc, options, c.identity, no_deadline);
  EXPECT_EQ(hop_state.exact_objective(passed), 6);
}

// ... and then refine returns its input, as it does for a result that the check finds worse.
TEST(Refine, ReturnsItsInputWhenItsCheckIsCutShortOrFindsItWorse) {
  const Mapping input = identity_mapping(4);
  const Mapping result = {1, 0, 2, 3};
  detail::RefineReport report;
  EXPECT_EQ(detail::checked_result(input, result, std::nullopt, 2, false, report), input);
  EXPECT_EQ(detail::checked_result(input, result, 3, 2, false, report), input);
  EXPECT_EQ(detail::checked_result(input, result, 2, 2, true, report), input);  // hop-bytes must fall
  EXPECT_EQ(report.objective, std::nullopt);
  EXPECT_EQ(detail::checked_result(input, result, 2, 2, false, report), result);
  EXPECT_EQ(report.objective, 2);
  EXPECT_EQ(detail::checked_result(input, result, 1, 2, true, report), result);
  EXPECT_EQ(report.objective, 1);
}

TEST(Refine, UnderMclReachesTheLeastHopBytesWithoutRaisingTheMcl) {
  const NeutralSwapCase c;
  const Mapping better = refine(c.graph, c.alloc, c.identity, Objective::mcl);
  EXPECT_EQ(mcl(c.graph, c.alloc, better), 2);
  EXPECT_EQ(metrics::hop_bytes(c.graph, c.alloc, better), 3);
}

/// Two phases on torus:4x4, one task per node: every task sends 8 bytes to the next task, then
/// 8 bytes to the task four ahead (a sweep along each dimension of the row-major task grid).
struct PhasedCase {
  Allocation alloc = Allocation::full(Grid::parse("torus:4x4"), 1);
  std::vector<graph::CommGraph> phases;
  graph::CommGraph summed;
  PhasedCase() {
    std::vector<graph::Edge> all;
    for (TaskId step : {1, 4}) {
      std::vector<graph::Edge> edges;
      for (TaskId t = 0; t < 16; ++t) edges.push_back({t, (t + step) % 16, 8.0});
      all.insert(all.end(), edges.begin(), edges.end());
      phases.push_back(graph::CommGraph::from_edges(16, std::move(edges)));
    }
    summed = graph::CommGraph::from_edges(16, std::move(all));
  }
  double phased_mcl(const Mapping& m, const MapOptions& options) const {
    const auto routing = topology::make_routing_model(alloc.grid(), options.routing);
    return metrics::phased_max_channel_load(phases, alloc, m, *routing);
  }
};

Mapping shuffled(TaskId n, unsigned seed) {
  Mapping m = identity_mapping(n);
  std::mt19937 rng(seed);
  std::shuffle(m.begin(), m.end(), rng);
  return m;
}

TEST(Refine, WithPhasesTracksTheSumOfThePhasesMcls) {
  const PhasedCase c;
  MapOptions options;
  options.phases = c.phases;
  const Deadline no_deadline(1e6);
  detail::SwapState state(c.summed, c.alloc, options, shuffled(16, 3), no_deadline);
  ASSERT_TRUE(state.ready());
  ASSERT_EQ(state.phase_mcls().size(), 2u);
  EXPECT_DOUBLE_EQ(state.objective(), c.phased_mcl(state.mapping(), options));
  int kept = 0;
  for (TaskId a = 0; a < 16; ++a)
    for (TaskId b = a + 1; b < 16; ++b)
      if (state.node_of(a) != state.node_of(b) && state.try_swap(a, b)) {
        ++kept;
        EXPECT_DOUBLE_EQ(state.objective(), c.phased_mcl(state.mapping(), options));
        EXPECT_DOUBLE_EQ(state.objective(), state.exact_objective(no_deadline).value());
        const std::vector<double> mcls = state.phase_mcls();
        EXPECT_DOUBLE_EQ(mcls[0] + mcls[1], state.objective());
      }
  EXPECT_GT(kept, 0);
}

TEST(Refine, WithPhasesLowersTheSumOfThePhasesMcls) {
  const PhasedCase c;
  MapOptions options;
  options.phases = c.phases;
  options.time_budget_ms = 300;
  const Mapping start = shuffled(16, 5);
  options.initial = &start;
  const Mapping better = run_chain("refine", core_algorithms(), c.summed, c.alloc, options);
  ASSERT_TRUE(is_permutation(better));
  // The identity lays both sweeps along the torus's rings: each phase's MCL is one flow, 8 bytes.
  EXPECT_EQ(c.phased_mcl(identity_mapping(16), options), 16);
  EXPECT_LT(c.phased_mcl(better, options), c.phased_mcl(start, options));
}

TEST(Refine, RefusesAPhaseWithAnotherTaskCount) {
  const PhasedCase c;
  MapOptions options;
  const std::vector<graph::CommGraph> wrong{graph::CommGraph::from_edges(8, {{0, 1, 1.0}})};
  options.phases = wrong;
  EXPECT_THROW(run_chain("refine", core_algorithms(), c.summed, c.alloc, options), InputError);
}

}  // namespace
}  // namespace rankmap::mapping
