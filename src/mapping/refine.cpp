// The refine mapper: pairwise-swap local search on the objective, within the time budget.
#include "refine.hpp"

#include "parameter.hpp"
#include "swap_moves.hpp"
#include "swap_state.hpp"

#include <atomic>
#include <cmath>
#include <memory>

namespace rankmap::mapping {

namespace {

constexpr int kClockEvery = 4;                ///< attempts between two looks at the clock
/// After max(this, 2 P) fruitless random attempts in a row a full sweep of the near moves runs;
/// the phase ends if it keeps nothing.
constexpr long long kMinStaleAttempts = 2000;
/// Under MCL the search runs three phases, each with its share of the search time:
/// 1. descend on hop-bytes alone, without routing flows and with no cap on the loads. A search
///    capped at the input's MCL, routing each swap's flows, stalls near its start, while the
///    short routes found without the cap often had lower loads too.
/// 2. lower the MCL, then hop-bytes, then squared loads (lexicographically);
/// 3. shorten routes, with loads capped 10% above the MCL phase 2 reached (never above the
///    input's; with MapOptions::phases, each communication phase's loads by its own MCLs). Swaps
///    that lower the MCL lengthen routes, and a phase capped at the MCL reached finds little room.
/// Phase 1 tries over a hundred times more swaps per second than the others (stencil27 on
/// mesh:8x8x16: 687,249 in 0.6 s against 2,068 in 0.4 s). See docs/algorithms.md for what the
/// three phases gained on the quality table.
constexpr double kHopBytesShare = 0.6;
constexpr double kLowerMclShare = 0.05;
constexpr double kShortenShare = 0.35;
constexpr double kShortenSlack = 0.1;
/// Phase 1 costs an evaluation (routing its result's flows to search from them; without a known
/// input, the input's are routed too), so it runs only when the search has time for this many; at
/// 50 ms on 16,384 tasks with six partners each, the three evaluations took the run 15% over its budget.
constexpr double kDescentMinEvaluations = 10;

/// Counts attempts and says when the phase's deadline or attempt count is spent, or the caller
/// stopped the search (`stop`, none: never).
class AttemptBudget {
 public:
  AttemptBudget(double ms, long long max_attempts, const std::atomic<bool>* stop)
      : deadline_(ms), max_(max_attempts), stop_(stop) {}
  bool spent() const {
    return (max_ > 0 && done_ >= max_) || (done_ % kClockEvery == 0 && (deadline_.passed() || (stop_ && *stop_)));
  }
  bool try_swap(detail::SwapState& state, TaskId a, TaskId b) {
    ++done_;
    return state.node_of(a) != state.node_of(b) && state.try_swap(a, b);
  }
  long long done() const noexcept { return done_; }

 private:
  Deadline deadline_;
  long long max_;
  const std::atomic<bool>* stop_;
  long long done_ = 0;
};

/// One sweep over every task a and every partner on the node of one of a's neighbours or one
/// hop from it (off grids: near it, `near`), the moves SwapPicker::partner makes seven times in
/// eight. Returns the swaps kept, or -1 if the budget ran out first.
long long sweep_near_moves(detail::SwapState& state, const topology::Allocation& alloc, const detail::NearNodes* near,
                           AttemptBudget& budget) {
  const topology::Grid* grid = alloc.network().grid_if();
  std::vector<int> stamp(static_cast<std::size_t>(alloc.num_nodes()), -1);
  std::vector<int> nodes;
  long long kept = 0;
  for (TaskId a = 0; a < static_cast<TaskId>(alloc.num_slots()); ++a) {
    nodes.clear();
    const auto add = [&](int node) {
      if (node >= 0 && stamp[node] != a) stamp[node] = a, nodes.push_back(node);
    };
    state.for_each_neighbour(a, [&](TaskId x) {
      const int node = state.node_of(x);
      add(node);
      if (near) {
        for (int n : near->of(node)) add(n);
        return;
      }
      for (int d = 0; d < grid->ndims(); ++d)
        for (topology::Direction dir : {topology::Direction::plus, topology::Direction::minus}) {
          const NodeId next = grid->neighbor(alloc.node(node), d, dir);
          if (next >= 0) add(state.node_lookup()(next));
        }
    });
    for (int node : nodes) {
      if (node == state.node_of(a)) continue;
      for (SlotId s : alloc.slots_of_node(node)) {
        if (budget.spent()) return -1;
        if (state.objective() <= 0) return kept;
        kept += budget.try_swap(state, a, state.task_at(s)) ? 1 : 0;
      }
    }
  }
  return kept;
}

/// Tries swaps toward `goal` until the budget is spent or a local optimum is reached: random
/// swaps, and after max(2000, 2 P) fruitless ones in a row a sweep of every near move; the phase
/// ends if that sweep keeps nothing. Returns true at a local optimum.
bool run_phase(detail::SwapState& state, const topology::Allocation& alloc, detail::SwapPicker& pick,
               AttemptBudget& budget, bool hot_first, detail::RefineReport& report) {
  const long long stale_limit = std::max<long long>(kMinStaleAttempts, 2LL * alloc.num_slots());
  for (long long stale = 0; !budget.spent();) {
    if (stale >= stale_limit) {
      const long long kept = sweep_near_moves(state, alloc, pick.near_nodes(), budget);
      if (kept < 0) return false;
      ++report.sweeps;
      report.kept += kept;
      if (kept == 0) return true;
      stale = 0;
      continue;
    }
    const TaskId a = pick.first(hot_first);
    if (a < 0) return true;
    if (budget.try_swap(state, a, pick.partner(a))) stale = 0, ++report.kept;
    else ++stale;
  }
  return false;
}

/// `share` of the `refine:N` attempts (0: no limit).
long long attempts_share(long long max_attempts, double share) {
  return max_attempts == 0 ? 0 : std::max<long long>(1, std::llround(static_cast<double>(max_attempts) * share));
}

/// Runs one phase within `ms` and `attempts`.
bool run_within(detail::SwapState& state, const topology::Allocation& alloc, std::uint64_t seed, double ms,
                long long attempts, bool hot_first, const std::atomic<bool>* stop, detail::RefineReport& report) {
  detail::SwapPicker pick(state, alloc, seed);
  AttemptBudget budget(ms, attempts, stop);
  const bool at_optimum = run_phase(state, alloc, pick, budget, hot_first, report);
  report.attempts += budget.done();
  return at_optimum;
}

/// Phase 1 under MCL: hop-bytes alone, on a state that routes nothing. Returns its result, or the
/// input if the budget ran out during the setup.
Mapping descend_on_hop_bytes(const graph::CommGraph& graph, const topology::Allocation& alloc,
                             const MapOptions& options, const Mapping& initial, const Deadline& budget,
                             double search_ms, long long max_attempts, const std::atomic<bool>* stop,
                             detail::RefineReport& report) {
  MapOptions hop_options = options;
  hop_options.objective = Objective::hop_bytes;
  detail::SwapState state(graph, alloc, hop_options, initial, budget);
  if (!state.ready()) return initial;
  report.converged = run_within(state, alloc, options.seed, search_ms * kHopBytesShare,
                                attempts_share(max_attempts, kHopBytesShare), false, stop, report);
  return state.mapping();
}

/// Under hop-bytes: one search, its result kept only if it has fewer hop-bytes than the input.
Mapping refine_hop_bytes(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options,
                         const Mapping& initial, const Deadline& budget, long long max_attempts,
                         const std::atomic<bool>* stop, detail::RefineReport& report) {
  detail::SwapState state(graph, alloc, options, initial, budget);
  if (!state.ready()) return initial;
  const double search_ms = detail::search_ms_left(budget, options.time_budget_ms, 1, state.evaluation_ms());
  report.converged = run_within(state, alloc, options.seed, search_ms, max_attempts, false, stop, report);
  return detail::checked_result(initial, state.mapping(), state.exact_objective(budget), state.initial_objective(),
                                true, report);
}

/// Under MCL: the three phases above. The routed state is set up on the mapping it searches from,
/// so with a known input and the descent the input is never routed: its routing served only for
/// its objective, which the caller had.
Mapping refine_mcl(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options,
                   const Mapping& initial, const Deadline& budget, long long max_attempts,
                   const detail::KnownInput* known, const std::atomic<bool>* stop, detail::RefineReport& report) {
  std::unique_ptr<detail::SwapState> state;
  const auto set_up = [&](const Mapping& from, const detail::SwapState::RoutedLoads* routed = nullptr) {
    state.reset();  // before the next is built: each holds a copy of the graph's edges
    state = std::make_unique<detail::SwapState>(graph, alloc, options, from, budget, routed);
    return state->ready();
  };
  const bool knows_input = known && options.phases.empty();
  if (!knows_input && !set_up(initial)) return initial;
  const double input_mcl = knows_input ? known->objective : state->initial_objective();  // not to be exceeded
  const std::vector<double> input_phase_mcls = knows_input ? std::vector<double>{input_mcl} : state->phase_mcls();
  const double input_ms = knows_input ? known->evaluation_ms : state->evaluation_ms();
  // Each phase's share is of the time left when it starts, so time a phase leaves at a local
  // optimum goes to the next ones.
  const auto search_ms = [&](double evaluations, double each_ms) {
    return detail::search_ms_left(budget, options.time_budget_ms, evaluations, each_ms);
  };
  if (search_ms(2, input_ms) > kDescentMinEvaluations * input_ms) {
    const Mapping shortened = descend_on_hop_bytes(graph, alloc, options, initial, budget, search_ms(2, input_ms),
                                                   max_attempts, stop, report);
    if (shortened != initial && !set_up(shortened)) return initial;
  }
  // The input's loads, when the caller kept them, spare routing its flows again: in auto the starts
  // were all routed once to be ranked.
  if (!state && knows_input && known->loads) {
    const detail::SwapState::RoutedLoads routed{*known->loads, known->loads_ms};
    if (!set_up(initial, &routed)) return initial;
  }
  if (!state && !set_up(initial)) return initial;
  // The final check routes the result's flows, about as long as setting the state up took, or
  // routing the loads it was given took: the typical time of a known input, or the launcher's order's,
  // can be far off (starts took 7 to 16 ms to route where the launcher's order took 10: stencil27 on
  // 400 scattered nodes with 4 per node, 203 ms of 200).
  const double check_ms = state->evaluation_ms();
  const double mcl_share = kLowerMclShare / (kLowerMclShare + kShortenShare);
  report.converged = run_within(*state, alloc, options.seed, search_ms(1, check_ms) * mcl_share,
                                attempts_share(max_attempts, kLowerMclShare), true, stop, report) &&
                     report.converged;
  std::vector<double> ceilings = state->phase_mcls();
  for (std::size_t p = 0; p < ceilings.size(); ++p)
    ceilings[p] = std::min(input_phase_mcls[p], (1 + kShortenSlack) * ceilings[p]);
  state->set_goal(detail::SwapState::Goal::shorten, std::move(ceilings));
  report.converged = run_within(*state, alloc, options.seed, search_ms(1, check_ms),
                                attempts_share(max_attempts, kShortenShare), false, stop, report) &&
                     report.converged;
  if (state->mapping() == initial) return initial;
  return detail::checked_result(initial, state->mapping(), state->exact_objective(budget), input_mcl, false, report);
}

}  // namespace

Mapping detail::checked_result(const Mapping& input, const Mapping& result, std::optional<double> checked,
                               double input_objective, bool must_lower, RefineReport& report) {
  if (!checked || *checked > input_objective || (must_lower && *checked == input_objective)) return input;
  report.objective = checked;
  return result;
}

// Starts from options.initial (the previous chain stage; the identity if none). The result is
// returned only if the objective recomputed from scratch is not worse than the input's (`known`'s,
// when given). The budget covers the setup and the final check: setting up a state (routing every
// flow once) gives up when the budget runs out, and the search leaves time for the final check (as
// long as routing every flow took) plus 3% of the budget. A check the budget cuts short returns
// the input, as a timed anneal's does: in auto, the last refine's budget ends where the time kept
// for the hedge begins, and a check that ran on would take that time. (Under `refine:N` the search
// stops at its budget too, so the check adds no new dependence on the clock.)
Mapping detail::refine_mapping(const graph::CommGraph& graph, const topology::Allocation& alloc,
                               const MapOptions& options, RefineReport& report, const KnownInput* known,
                               const std::atomic<bool>* stop) {
  report = {};
  report.converged = true;
  const Deadline budget(options.time_budget_ms);
  const long long max_attempts = detail::count_parameter(options, "refine", 0);
  const Mapping initial = detail::starting_mapping(graph, options, "refine");
  if (alloc.num_nodes() < 2 || graph.num_edges() == 0 || options.time_budget_ms <= 0) return initial;
  if (options.objective == Objective::hop_bytes)
    return refine_hop_bytes(graph, alloc, options, initial, budget, max_attempts, stop, report);
  return refine_mcl(graph, alloc, options, initial, budget, max_attempts, known, stop, report);
}

Mapping map_refine(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  detail::RefineReport report;
  return detail::refine_mapping(graph, alloc, options, report);
}

}  // namespace rankmap::mapping
