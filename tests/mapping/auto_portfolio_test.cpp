// auto: never worse than the launcher's order or the caller's start, reproducible with attempts=N, and says what won.
#include <rankmap/mapping/acceptance.hpp>
#include <rankmap/mapping/concentration.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/channel_load.hpp>

#include "factories.hpp"
#include "portfolio.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace rankmap::mapping {
namespace {

using ::testing::HasSubstr;
using topology::Allocation;
using topology::Grid;

double mcl(const graph::CommGraph& g, const Allocation& a, const Mapping& m) {
  return metrics::max_channel_load(g, a, m, *topology::make_routing_model(a.grid(), "adaptive"));
}

Mapping run_auto(const graph::CommGraph& g, const Allocation& a, MapOptions options,
                 std::string_view chain = "auto:attempts=3000") {
  options.time_budget_ms = 1e6;  // the attempt count ends every search
  return run_chain(chain, core_algorithms(), g, a, options);
}

TEST(Auto, KeepsTheLauncherOrderWhenItIsAlreadyOptimal) {
  // A ring of 16 in order on torus:16 has MCL 1, the least possible: nothing may beat it, so the
  // identity must win the tie.
  const Allocation a = Allocation::full(Grid::parse("torus:16"), 1);
  const auto g = testing::ring_graph(16);
  Choice choice;
  MapOptions options;
  options.choice = &choice;
  const Mapping m = run_auto(g, a, options);
  EXPECT_EQ(m, identity_mapping(16));
  EXPECT_EQ(choice.chosen, "identity");
  EXPECT_THAT(choice.detail, HasSubstr("identity 1"));
  // The hedge routes nothing when the launcher's order wins: no loads were measured to hand over.
  EXPECT_FALSE(choice.dor_loads);
}

TEST(Auto, NeverWorseThanTheIdentityOnRandomGraphs) {
  const Allocation a = Allocation::full(Grid::parse("mesh:4x4x2"), 2);
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto g = testing::random_graph(64, 3, seed);
    const Mapping m = run_auto(g, a, {});
    ASSERT_TRUE(is_permutation(m));
    EXPECT_LE(mcl(g, a, m), mcl(g, a, identity_mapping(64))) << "seed " << seed;
  }
}

// On the clock with two threads: members built two at once and the best two starts continued at
// once must still give a permutation no worse than the launcher's order.
TEST(Auto, NeverWorseThanTheIdentityOnTwoThreadsAndAShortBudget) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x4"), 2);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto g = testing::random_graph(128, 4, seed);
    MapOptions options;
    options.threads = 2;
    options.time_budget_ms = 40;
    Choice choice;
    options.choice = &choice;
    const Mapping m = run_chain("auto", core_algorithms(), g, a, options);
    ASSERT_TRUE(is_permutation(m));
    EXPECT_LE(mcl(g, a, m), mcl(g, a, identity_mapping(128))) << "seed " << seed << ": " << choice.detail;
  }
}

double dor_mcl(const graph::CommGraph& g, const Allocation& a, const Mapping& m) {
  return metrics::max_channel_load(g, a, m, *topology::make_routing_model(a.grid(), "dor"));
}

// Without a named routing, auto optimises MCL under adaptive routing but keeps nothing that raises
// the MCL under dimension-ordered routing above the launcher's order's. On this 27-point stencil
// (found with `rankmap map` and `rankmap eval` over the generator's patterns), naming the routing
// lets auto raise it from 15 to 24.
TEST(Auto, WithoutANamedRoutingNeverRaisesTheDimensionOrderedLoad) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x2"), 2);
  const auto g = graph::make_pattern({.name = "stencil27", .dims = {}, .ranks = 64, .bytes = 1});
  const double launcher = dor_mcl(g, a, identity_mapping(64));
  MapOptions named;
  named.routing_stated = true;
  ASSERT_GT(dor_mcl(g, a, run_auto(g, a, named, "auto:attempts=300")), launcher * (1 + 1e-9))
      << "the instance no longer tests the hedge";
  Choice choice;
  MapOptions unnamed;
  unnamed.choice = &choice;
  EXPECT_LE(dor_mcl(g, a, run_auto(g, a, unnamed, "auto:attempts=300")), launcher * (1 + 1e-9));
  EXPECT_THAT(choice.detail, HasSubstr("refused for raising the MCL under the network's static routing"));
}

// A timed auto routes the launcher's order statically beside its scoring (or after it, on one
// thread) and checks its winner against it within the budget: whatever the clock allowed, the
// result never raises the static routing's load, and the loads handed over are exact.
TEST(Auto, TimedOnOneOrTwoThreadsNeverRaisesTheDimensionOrderedLoad) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x2"), 2);
  const auto g = graph::make_pattern({.name = "stencil27", .dims = {}, .ranks = 64, .bytes = 1});
  const double launcher = dor_mcl(g, a, identity_mapping(64));
  for (const int threads : {1, 2}) {
    Choice choice;
    MapOptions options;
    options.choice = &choice;
    options.threads = threads;
    options.time_budget_ms = 150;
    const Mapping m = run_chain("auto", core_algorithms(), g, a, options);
    EXPECT_LE(dor_mcl(g, a, m), launcher * (1 + 1e-9)) << threads << " threads";
    ASSERT_TRUE(choice.dor_loads) << threads << " threads";
    EXPECT_EQ(choice.dor_loads->launcher, dor_max_channel_load(g, a, identity_mapping(64)));
    EXPECT_EQ(choice.dor_loads->chosen, dor_max_channel_load(g, a, m));
  }
}

// The runtime's do-no-harm test reuses the loads auto's hedge measured (Choice::dor_loads) instead
// of routing both mappings again: they must be exactly what it would have computed.
TEST(Auto, HandsOverTheDimensionOrderedLoadsItMeasured) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x2"), 2);
  const auto g = graph::make_pattern({.name = "stencil27", .dims = {}, .ranks = 64, .bytes = 1});
  Choice choice;
  MapOptions unnamed;
  unnamed.choice = &choice;
  const Mapping m = run_auto(g, a, unnamed, "auto:attempts=300");
  ASSERT_TRUE(choice.dor_loads);
  EXPECT_EQ(choice.dor_loads->launcher, dor_max_channel_load(g, a, identity_mapping(64)));
  EXPECT_EQ(choice.dor_loads->chosen, dor_max_channel_load(g, a, m));
  // A later stage changes the mapping, so the loads are not handed over; nor when a routing is named.
  run_auto(g, a, unnamed, "auto:attempts=300+refine:50");
  EXPECT_FALSE(choice.dor_loads);
  MapOptions named = unnamed;
  named.routing_stated = true;
  run_auto(g, a, named, "auto:attempts=300");
  EXPECT_FALSE(choice.dor_loads);
}

// The runtime reports auto's own measurements (Choice::objectives) instead of routing both
// mappings again: they must be exactly the objective values it would have computed.
TEST(Auto, HandsOverTheObjectivesItMeasured) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x2"), 2);
  const auto g = graph::make_pattern({.name = "stencil27", .dims = {}, .ranks = 64, .bytes = 1});
  Choice choice;
  MapOptions options;
  options.choice = &choice;
  options.routing_stated = true;  // no hedge: here it would keep the launcher's order
  const Mapping m = run_auto(g, a, options, "auto:attempts=300");
  ASSERT_TRUE(choice.objectives);
  EXPECT_EQ(choice.objectives->launcher, mcl(g, a, identity_mapping(64)));
  EXPECT_EQ(choice.objectives->chosen, mcl(g, a, m));
  EXPECT_LT(choice.objectives->chosen, choice.objectives->launcher) << "the instance no longer tests a change";
  run_auto(g, a, options, "auto:attempts=300+refine:50");
  EXPECT_FALSE(choice.objectives) << "a later stage's mapping is not the one auto measured";
}

// Scoring the launcher's order of a dense graph can take many budgets; a timed auto stops when its
// budget runs out and keeps that order, saying why, instead of finishing the measurement.
TEST(Auto, KeepsTheLauncherOrderWhenTheBudgetRunsOutWhileMeasuringIt) {
  const Allocation a = Allocation::full(Grid::parse("torus:8x4x4"), 1);
  const auto g = graph::make_pattern({.name = "alltoall", .dims = {}, .ranks = 128, .bytes = 1});
  Choice choice;
  MapOptions options;
  options.choice = &choice;
  options.time_budget_ms = 1e-3;
  const Mapping m = run_chain("auto", core_algorithms(), g, a, options);
  EXPECT_EQ(m, identity_mapping(128));
  EXPECT_EQ(choice.chosen, "identity");
  EXPECT_THAT(choice.detail, HasSubstr("budget ran out while the launcher's order was being measured"));
  ASSERT_TRUE(choice.objectives);
  EXPECT_TRUE(std::isnan(choice.objectives->launcher));
  // With an attempt count nothing depends on the clock: the order is measured however long it takes.
  run_auto(g, a, options, "auto:attempts=1");
  ASSERT_TRUE(choice.objectives);
  EXPECT_EQ(choice.objectives->launcher, mcl(g, a, identity_mapping(128)));
}

TEST(Auto, NeverWorseThanTheCallersStart) {
  // The caller's start (a precomputed mapping, or the launcher's order of a profile) is a member.
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x4"), 1);
  const auto g = testing::random_graph(64, 4, 11);
  MapOptions refined_options;
  refined_options.time_budget_ms = 1e6;
  const Mapping good = run_chain("hilbert+refine:20000", core_algorithms(), g, a, refined_options);
  MapOptions options;
  options.initial = &good;
  EXPECT_LE(mcl(g, a, run_auto(g, a, options, "auto:attempts=10")), mcl(g, a, good));
}

TEST(Auto, ImprovesAScrambledStencil) {
  // The launcher's order of a scrambled 2D stencil is bad; some refined member must do far better.
  const Allocation a = Allocation::full(Grid::parse("torus:8x8"), 1);
  const auto g = testing::stencil_graph({8, 8}, true);
  const Mapping scrambled = testing::random_permutation(64, 3);
  std::vector<graph::Edge> edges;
  for (const graph::Edge& e : g.edges()) edges.push_back({scrambled[e.src], scrambled[e.dst], e.weight});
  const auto h = graph::CommGraph::from_edges(64, edges);
  const Mapping m = run_auto(h, a, {});
  EXPECT_LT(mcl(h, a, m), 0.5 * mcl(h, a, identity_mapping(64)));
}

TEST(Auto, AttemptsMakeTheResultIndependentOfThreads) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x2"), 2);
  const auto g = testing::random_graph(64, 3, 7);
  MapOptions one, two;
  two.threads = 2;
  MapOptions three = one;
  three.threads = 3;  // members are then built three at once, in whatever order the threads take them
  Choice chosen_one, chosen_three;
  one.choice = &chosen_one;
  three.choice = &chosen_three;
  const Mapping m = run_auto(g, a, one);
  EXPECT_EQ(m, run_auto(g, a, two));
  EXPECT_EQ(m, run_auto(g, a, three));
  EXPECT_EQ(chosen_one.chosen, chosen_three.chosen);
  EXPECT_EQ(chosen_one.detail, chosen_three.detail) << "the starts keep the members' order";
  EXPECT_EQ(m, run_auto(g, a, one));
}

TEST(Auto, RejectsAParameterItDoesNotKnow) {
  const Allocation a = Allocation::full(Grid::parse("torus:4"), 1);
  const auto g = testing::ring_graph(4);
  for (const char* chain : {"auto:7", "auto:attempts=0", "auto:attempts=x", "auto:tries=3"})
    EXPECT_THROW(
        {
          try {
            run_auto(g, a, {}, chain);
          } catch (const InputError& e) {
            EXPECT_THAT(e.what(), HasSubstr("auto: parameter"));
            throw;
          }
        },
        InputError)
        << chain;
}

// When the hedge refuses the launcher's order refined, the launcher's order itself must still win
// over every start that scores worse than it, even one that passes the hedge. On the training set
// (ring on 125 scattered nodes, with grasp tried as a member) auto once kept a start with an MCL of
// 2 where the launcher's order had 1.73: the refined order was refused and the next that passed
// was worse.
TEST(Auto, KeepsNoStartThatScoresWorseThanTheLauncherOrder) {
  const detail::Score launcher{1.73, 10};
  const std::vector<detail::Score> ranked = {{1.5, 9}, {1.6, 9}, {2.0, 8}, {2.1, 7}};
  std::vector<std::size_t> asked;
  const auto refuse_first_two = [&](std::size_t k) { return asked.push_back(k), k < 2; };
  EXPECT_EQ(detail::first_kept(ranked, launcher, refuse_first_two), std::nullopt);
  EXPECT_EQ(asked, (std::vector<std::size_t>{0, 1}));  // nothing worse than the launcher's order is routed
  asked.clear();
  const auto refuse_first = [&](std::size_t k) { return asked.push_back(k), k < 1; };
  EXPECT_EQ(detail::first_kept(ranked, launcher, refuse_first), std::optional<std::size_t>{1});
  EXPECT_EQ(asked, (std::vector<std::size_t>{0, 1}));
  // A start that only ties the launcher's objective loses to it, even with fewer hop-bytes.
  EXPECT_EQ(detail::first_kept(std::vector<detail::Score>{{1.73, 10}}, launcher, [](std::size_t) { return false; }),
            std::nullopt);
  EXPECT_EQ(detail::first_kept(std::vector<detail::Score>{{1.73, 9}}, launcher, [](std::size_t) { return false; }),
            std::nullopt);
  EXPECT_EQ(detail::first_kept(std::vector<detail::Score>{{1.72, 11}}, launcher, [](std::size_t) { return false; }),
            std::optional<std::size_t>{0});
  // Nor does one whose objective differs from it only by the rounding of a sum taken in another
  // order (SP on torus:8x8x8: dimorder-best's MCL was the launcher's order's, one ulp lower).
  const double rounded_down = std::nextafter(1.73, 0.0);
  const auto keep_all = [](std::size_t) { return false; };
  EXPECT_EQ(detail::first_kept(std::vector<detail::Score>{{rounded_down, 9}}, launcher, keep_all), std::nullopt);
}

// With two threads the hedge routes two starts at once, so that a refused best does not leave the
// rest unchecked for want of time; two starts of one member were refused together (emahd and
// emahd+refine for bruck on 1,000 scattered nodes), hence the best of another member goes second.
TEST(Auto, RoutesAheadTheBestStartOfEachMemberBelowTheLauncherOrder) {
  const detail::Score launcher{10, 0};
  const std::vector<detail::Score> ranked = {{5, 0}, {6, 0}, {7, 0}, {8, 0}, {9, 0}, {11, 0}};
  const std::vector<std::string> names = {"emahd+refine", "emahd", "bisect+refine", "bisect", "split", "hilbert"};
  const auto all = [](std::size_t) { return true; };
  using Picks = std::vector<std::size_t>;
  EXPECT_EQ(detail::picks_to_route_ahead(ranked, names, launcher, all, 2), (Picks{0, 2}));
  EXPECT_EQ(detail::picks_to_route_ahead(ranked, names, launcher, all, 3), (Picks{0, 2, 4}));
  // hilbert scores above the launcher's order: first_kept() never reaches it, so neither does this.
  EXPECT_EQ(detail::picks_to_route_ahead(ranked, names, launcher, all, 8), (Picks{0, 2, 4}));
  EXPECT_EQ(detail::picks_to_route_ahead(ranked, names, launcher, all, 1), (Picks{0}));
  // A start already routed (or the launcher's order itself) needs no routing, and its member's next start may go.
  const auto not_first = [](std::size_t k) { return k != 0; };
  EXPECT_EQ(detail::picks_to_route_ahead(ranked, names, launcher, not_first, 2), (Picks{1, 2}));
}

// The hedge routes the first candidate whatever the time but the later ones only within the
// deadline: the search leaves time for up to four routings within 5% of the budget, and for one
// however long it takes.
TEST(Auto, LeavesTheHedgeUpToFourRoutingsWithinAShareOfTheBudgetAndAlwaysOne) {
  EXPECT_DOUBLE_EQ(detail::hedge_reserve_ms(1.2, 200), 4.8);  // ring on 1,000 scattered nodes
  EXPECT_DOUBLE_EQ(detail::hedge_reserve_ms(2.5, 200), 10);   // four fit in 5% of the budget
  EXPECT_DOUBLE_EQ(detail::hedge_reserve_ms(4, 200), 10);     // two and a half fit
  EXPECT_DOUBLE_EQ(detail::hedge_reserve_ms(21, 200), 21);    // not even one fits: one all the same
  EXPECT_DOUBLE_EQ(detail::hedge_reserve_ms(0, 200), 0);      // no hedge: nothing routed, nothing kept
}

// The launcher's order is scored cold, so auto judges the cost of its later evaluations by the
// starts' scorings.
TEST(Auto, JudgesAnEvaluationByTheMedianScoringOfItsStarts) {
  EXPECT_EQ(detail::typical_scoring_ms({4.8, 0.6, 3.3, 3.2, 1.2}, 7.4), 3.2);
  EXPECT_EQ(detail::typical_scoring_ms({2, 1}, 7.4), 2);  // the upper of two
  EXPECT_EQ(detail::typical_scoring_ms({}, 7.4), 7.4);    // no start scored: the launcher's order's
}

// Refine stops at the first placement that no single swap improves, which on a small graph leaves
// most of the budget unused; a timed auto anneals its best starts for at most as long as it took
// before, and only once that is a tenth of the budget, so that a small graph is not kept waiting.
TEST(Auto, AnnealsAtMostAsLongAsItTookOnceThatIsATenthOfTheBudget) {
  // search left, spent, one evaluation, budget (ms)
  EXPECT_EQ(detail::annealing_ms(150, 50, 1, 200, false), 51);    // as long as it took, plus the scoring
  EXPECT_EQ(detail::annealing_ms(30, 50, 1, 200, false), 30);     // within what the search has left
  EXPECT_EQ(detail::annealing_ms(150, 15, 1, 200, false), 0);     // 16 ms: less than a tenth of 200 plus 1
  EXPECT_EQ(detail::annealing_ms(9700, 300, 5, 10000, false), 0);  // converged in 0.3 s of 10 s: returned then
  EXPECT_EQ(detail::annealing_ms(15, 50, 1, 200, false), 0);      // too little left
}

// With phases refine's swaps rarely help and annealing needs minutes, so it gets all the time left.
TEST(Auto, AnnealsPhasesWithAllTheTimeLeftIfThatIsATenthOfTheBudget) {
  // search left, spent, one evaluation, budget (ms)
  EXPECT_EQ(detail::annealing_ms(280000, 20000, 50, 300000, true), 280000);  // BT's phases at 300 s
  EXPECT_EQ(detail::annealing_ms(150, 15, 1, 200, true), 150);  // even when it took little so far
  EXPECT_EQ(detail::annealing_ms(15, 50, 1, 200, true), 0);     // too little left
}

// Whatever the clock lets the annealing do, a timed auto's objective is exact and no worse than the
// launcher's order's (the annealed starts are scored afresh, not taken from the search).
TEST(Auto, TimedIsExactAndNoWorseThanTheLauncherOrderWhateverItAnneals) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x4"), 1);
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto g = testing::random_graph(64, 3, seed);
    Choice choice;
    MapOptions options;
    options.choice = &choice;
    options.routing_stated = true;  // no hedge, which could refuse what annealing found
    options.time_budget_ms = 150;
    const Mapping m = run_chain("auto", core_algorithms(), g, a, options);
    ASSERT_TRUE(choice.objectives);
    EXPECT_EQ(choice.objectives->chosen, mcl(g, a, m)) << "seed " << seed << ": " << choice.chosen;
    EXPECT_LE(choice.objectives->chosen, mcl(g, a, identity_mapping(64))) << "seed " << seed;
  }
}

// With phases the timed auto anneals all the time it has left; its objective is still the exact
// phased MCL of what it returns, and no worse than the launcher's order's.
TEST(Auto, TimedWithPhasesIsExactAndNoWorseThanTheLauncherOrder) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x2"), 2);
  const std::vector<graph::CommGraph> phases = testing::sweep_phases(8);
  const graph::CommGraph summed = testing::summed_phases(phases);
  const auto dor = topology::make_routing_model(a.grid(), "dor");
  Choice choice;
  MapOptions options;
  options.choice = &choice;
  options.phases = phases;
  options.routing = topology::RoutingSpec::parse("dor");
  options.routing_stated = true;
  options.time_budget_ms = 150;
  const Mapping m = run_chain("auto", core_algorithms(), summed, a, options);
  ASSERT_TRUE(choice.objectives);
  EXPECT_DOUBLE_EQ(choice.objectives->chosen, metrics::phased_max_channel_load(phases, a, m, *dor)) << choice.chosen;
  EXPECT_LE(choice.objectives->chosen, metrics::phased_max_channel_load(phases, a, identity_mapping(64), *dor));
}

// Phases found from steps only hedge: auto scores on the whole graph, and refuses what loads the
// phases more under the static routing. Two phases on a line of four nodes (found by random search
// of small cases): the launcher's order's whole graph loads its busiest channel 3, and so do its
// phases summed; each of the four mappings that load the whole graph less loads the phases more.
TEST(Auto, HedgePhasesKeepTheWholeGraphAsObjectiveAndRefuseWhatLoadsThemMore) {
  const std::vector<graph::CommGraph> phases{graph::CommGraph::from_edges(4, {{3, 1, 1}, {1, 2, 1}, {1, 0, 1}}),
                                             graph::CommGraph::from_edges(4, {{1, 3, 1}, {0, 3, 1}, {2, 0, 1}})};
  const auto g = testing::summed_phases(phases);
  const Allocation a = Allocation::full(Grid::parse("mesh:4"), 1);
  const Mapping unhedged = run_auto(g, a, {}, "auto:attempts=100");
  ASSERT_LT(mcl(g, a, unhedged), 3) << "the whole graph no longer gains";
  ASSERT_GT(dor_max_channel_load(g, a, unhedged, phases), 3) << "the instance no longer tests a refusal";
  Choice choice;
  MapOptions options;
  options.choice = &choice;
  options.hedge_phases = phases;
  const Mapping hedged = run_auto(g, a, options, "auto:attempts=100");
  EXPECT_LE(dor_max_channel_load(g, a, hedged, phases), 3);
  ASSERT_TRUE(choice.objectives);
  EXPECT_EQ(choice.objectives->chosen, mcl(g, a, hedged)) << "the objective is the whole graph's MCL";
  EXPECT_THAT(choice.detail, HasSubstr("refused for raising the MCL under the network's static routing"));
  // A named routing keeps the hedge, under that routing.
  options.routing = topology::RoutingSpec::parse("dor");
  options.routing_stated = true;
  const Mapping named = run_auto(g, a, options, "auto:attempts=100");
  EXPECT_LE(dor_max_channel_load(g, a, named, phases), 3);
  EXPECT_THAT(choice.detail, HasSubstr("refused for raising the phases' MCL under the named routing"));
}

// The hedge routes two starts at once on two threads; with `attempts=N` what it refuses and keeps
// must not depend on that, and nothing anneals.
TEST(Auto, TheHedgeRefusesAndKeepsAlikeOnOneAndTwoThreads) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x2"), 2);
  const auto g = graph::make_pattern({.name = "stencil27", .dims = {}, .ranks = 64, .bytes = 1});
  Choice one, two;
  MapOptions options;
  options.choice = &one;
  const Mapping m = run_auto(g, a, options, "auto:attempts=300");
  ASSERT_THAT(one.detail, HasSubstr("refused for raising the MCL")) << "the instance no longer tests a refusal";
  options.choice = &two;
  options.threads = 2;
  EXPECT_EQ(run_auto(g, a, options, "auto:attempts=300"), m);
  EXPECT_EQ(two.chosen, one.chosen);
  EXPECT_EQ(two.detail, one.detail);
  EXPECT_THAT(one.detail, ::testing::Not(HasSubstr("+anneal")));
}

std::vector<std::string>& build_log() {
  static std::vector<std::string> log;
  return log;
}
Mapping built_as_listed_first(const graph::CommGraph& g, const Allocation&, const MapOptions&) {
  build_log().push_back("listed first");
  return identity_mapping(g.num_tasks());
}
Mapping built_as_whole_machine_member(const graph::CommGraph& g, const Allocation&, const MapOptions&) {
  build_log().push_back("whole machine");
  return identity_mapping(g.num_tasks());
}

// Split goes first on a whole machine because it lays a task grid out on it; without a task grid
// its start only cost the members after it an evaluation.
TEST(Auto, BuildsTheWholeMachineMemberFirstOnlyForAGraphWithATaskGrid) {
  const detail::PortfolioMember members[] = {
      {"listed-first", &built_as_listed_first, ""},
      {"whole-machine", &built_as_whole_machine_member, "", 0, 0, 0, detail::MemberNetworks::all, true}};
  const Allocation whole = Allocation::full(Grid::parse("torus:4x4x4"), 1);
  MapOptions options;
  options.parameter = "attempts=10";
  options.time_budget_ms = 1e6;
  const auto stencil = testing::stencil_graph({4, 4, 4}, true);
  const auto random = testing::random_graph(64, 4, 3);
  ASSERT_FALSE(detect_task_grid(stencil).empty());
  ASSERT_TRUE(detect_task_grid(random).empty());
  build_log().clear();
  detail::map_portfolio(stencil, whole, options, members);
  EXPECT_EQ(build_log(), (std::vector<std::string>{"whole machine", "listed first"}));
  build_log().clear();
  detail::map_portfolio(random, whole, options, members);
  EXPECT_EQ(build_log(), (std::vector<std::string>{"listed first", "whole machine"}));
}

/// The ring of 16 scrambled by a fixed permutation, and the mapping that unscrambles it onto torus:16.
struct ScrambledRing {
  Mapping scramble = testing::random_permutation(16, 5);
  graph::CommGraph graph = [this] {
    std::vector<graph::Edge> edges;
    for (const graph::Edge& e : testing::ring_graph(16).edges()) edges.push_back({scramble[e.src], scramble[e.dst], e.weight});
    return graph::CommGraph::from_edges(16, edges);
  }();
  Mapping unscrambled() const { return inverse(scramble); }
};
const ScrambledRing& scrambled_ring() {
  static const ScrambledRing ring;
  return ring;
}
Mapping unscrambles_slowly(const graph::CommGraph&, const Allocation&, const MapOptions&) {
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  return scrambled_ring().unscrambled();
}
Mapping unscrambles_at_once(const graph::CommGraph&, const Allocation&, const MapOptions&) {
  return scrambled_ring().unscrambled();
}

// Two members that build the same mapping keep the name of the one listed first, even when the
// other, on another thread, finishes first: the name is reported and breaks ties.
TEST(Auto, AStartBuiltTwiceIsNamedAfterTheMemberListedFirst) {
  const detail::PortfolioMember members[] = {{"listed-first", &unscrambles_slowly, ""},
                                             {"listed-second", &unscrambles_at_once, ""}};
  const Allocation a = Allocation::full(Grid::parse("torus:16"), 1);
  for (int threads : {1, 2}) {
    MapOptions options;
    options.parameter = "attempts=10";
    options.time_budget_ms = 1e6;
    options.threads = threads;
    Choice choice;
    options.choice = &choice;
    EXPECT_EQ(detail::map_portfolio(scrambled_ring().graph, a, options, members), scrambled_ring().unscrambled());
    EXPECT_EQ(choice.chosen, "listed-first") << threads << " threads: " << choice.detail;
  }
}

Mapping fails_on_purpose(const graph::CommGraph&, const Allocation&, const MapOptions&) {
  throw InputError("this member fails on purpose");
}

// A member that throws on a thread of its own must fail the call like one on the caller's thread,
// not end the process (an exception that leaves a std::thread calls std::terminate).
TEST(Auto, AMemberThatThrowsOnAnotherThreadFailsTheCallNotTheProcess) {
  // Three failing members on three threads: each thread takes one, so two throw off the caller's thread.
  const detail::PortfolioMember members[] = {
      {"first", &fails_on_purpose, ""}, {"second", &fails_on_purpose, ""}, {"third", &fails_on_purpose, ""}};
  const Allocation a = Allocation::full(Grid::parse("torus:4x4"), 1);
  const auto g = testing::ring_graph(16);
  MapOptions options;
  options.parameter = "attempts=10";
  options.time_budget_ms = 1e6;
  options.threads = 3;
  EXPECT_THROW(
      {
        try {
          detail::map_portfolio(g, a, options, members);
        } catch (const InputError& e) {
          EXPECT_STREQ(e.what(), "this member fails on purpose");
          throw;
        }
      },
      InputError);
}

}  // namespace
}  // namespace rankmap::mapping
