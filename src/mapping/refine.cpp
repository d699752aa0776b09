// The refine mapper: pairwise-swap local search on the objective, within the time budget.
#include "refine.hpp"

#include "parameter.hpp"
#include "swap_state.hpp"

#include <cmath>
#include <random>

namespace rankmap::mapping {

namespace {

constexpr int kClockEvery = 4;                ///< attempts between two looks at the clock
/// After max(this, 2 P) fruitless random attempts in a row a full sweep of the near moves runs;
/// the phase ends if it keeps nothing.
constexpr long long kMinStaleAttempts = 2000;
/// The share of the search spent shortening routes, and the MCL that phase may give back relative
/// to where the first phase left it (never above the input's). Swaps that lower the MCL lengthen
/// routes, and a shortening phase capped at the MCL reached finds little room. On the quality
/// table's mesh, fragmented and stencil families (1 s budget, one worker), mahd+refine / scotch
/// hop-bytes went from 1.30 / 1.27 / 1.22 (a quarter, no slack) to 1.17 / 1.07 / 1.00, and MCL
/// from 0.75 / 0.64 / 0.59 to 0.86 / 0.76 / 0.70 (random: 0.90). Three quarters gave 1.20 / 1.09 /
/// 1.02 for MCL 0.84 / 0.73 / 0.67; slack 0.25 cost more MCL than 0.1 for no more hop-bytes.
constexpr double kShortenShare = 0.9;
constexpr double kShortenSlack = 0.1;

Mapping starting_mapping(const graph::CommGraph& graph, const MapOptions& options) {
  if (!options.initial) return identity_mapping(graph.num_tasks());
  const Mapping& m = *options.initial;
  if (static_cast<TaskId>(m.size()) != graph.num_tasks() || !is_permutation(m))
    throw InputError("refine: the initial mapping is not a permutation of the graph's " +
                     std::to_string(graph.num_tasks()) + " tasks");
  return m;
}

/// Picks swap candidates: the first task mostly among those loading the hottest channel (under
/// MCL), the partner on or next to the node of one of the first task's neighbours, one time in
/// eight anywhere (on fragmented allocations 1/8 beat 1/2 and 0 for the same number of attempts).
class SwapPicker {
 public:
  SwapPicker(detail::SwapState& state, const topology::Allocation& alloc, std::uint64_t seed)
      : state_(state), alloc_(alloc), rng_(seed) {}

  /// -1 when the objective is already 0. `hot`: mostly among the tasks loading the hottest channel.
  TaskId first(bool hot) {
    if (state_.objective() <= 0) return -1;
    if (!hot) return random_task();
    const std::vector<TaskId>& tasks = state_.hot_tasks();
    if (!tasks.empty() && rng_() % 8 != 0) return tasks[rng_() % tasks.size()];
    return random_task();
  }

  TaskId partner(TaskId a) {
    if (rng_() % 8 == 0) return random_task();
    const TaskId near = state_.some_neighbour(a, [&](std::size_t degree) { return rng_() % degree; });
    if (near < 0) return random_task();
    int node = state_.node_of(near);
    const topology::Grid& grid = alloc_.grid();
    if (rng_() % 2 == 0) {
      const NodeId next = grid.neighbor(alloc_.node(node), static_cast<int>(rng_() % grid.ndims()),
                                        rng_() % 2 ? topology::Direction::plus : topology::Direction::minus);
      const int i = next >= 0 ? state_.node_lookup()(next) : -1;
      if (i >= 0) node = i;
    }
    const auto slots = alloc_.slots_of_node(node);
    return state_.task_at(slots[rng_() % slots.size()]);
  }

 private:
  TaskId random_task() { return state_.task_at(static_cast<SlotId>(rng_() % alloc_.num_slots())); }

  detail::SwapState& state_;
  const topology::Allocation& alloc_;
  std::mt19937_64 rng_;
};

/// Counts attempts and says when the phase's deadline or attempt count is spent.
class AttemptBudget {
 public:
  AttemptBudget(double ms, long long max_attempts) : deadline_(ms), max_(max_attempts) {}
  bool spent() const { return (max_ > 0 && done_ >= max_) || (done_ % kClockEvery == 0 && deadline_.passed()); }
  bool try_swap(detail::SwapState& state, TaskId a, TaskId b) {
    ++done_;
    return state.node_of(a) != state.node_of(b) && state.try_swap(a, b);
  }
  long long done() const noexcept { return done_; }

 private:
  Deadline deadline_;
  long long max_;
  long long done_ = 0;
};

/// One sweep over every task a and every partner on the node of one of a's neighbours or one
/// hop from it (the moves SwapPicker::partner makes seven times in eight). Returns the swaps
/// kept, or -1 if the budget ran out first.
long long sweep_near_moves(detail::SwapState& state, const topology::Allocation& alloc, AttemptBudget& budget) {
  const topology::Grid& grid = alloc.grid();
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
      for (int d = 0; d < grid.ndims(); ++d)
        for (topology::Direction dir : {topology::Direction::plus, topology::Direction::minus}) {
          const NodeId next = grid.neighbor(alloc.node(node), d, dir);
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

}  // namespace

// Starts from options.initial (the previous chain stage; the identity if none) and tries swaps
// in two phases: a tenth of the search on the objective (under MCL: the MCL, then hop-bytes,
// then squared loads), nine tenths (under MCL) on hop-bytes with loads capped 10% above the MCL
// the first phase reached. Each phase tries random swaps; after max(2000, 2 P) fruitless ones
// in a row it sweeps every near move once, and ends if that keeps nothing (a local optimum for
// the near moves), else goes back to random swaps. A phase also ends when its share of the time
// budget or of the `refine:N` attempts is spent.
// The result is returned only if the objective recomputed from scratch is not worse than the
// input's. The budget covers the setup and the final check: the setup (routing every flow once)
// gives up when the budget runs out, and the search stops early by the time the setup's
// evaluation took (the final check costs the same) plus 3% of the budget.
Mapping detail::refine_mapping(const graph::CommGraph& graph, const topology::Allocation& alloc,
                               const MapOptions& options, RefineReport& report) {
  report = {};
  const Deadline budget(options.time_budget_ms);
  const long long max_attempts = detail::count_parameter(options, "refine", 0);
  Mapping initial = starting_mapping(graph, options);
  if (alloc.num_nodes() < 2 || graph.num_edges() == 0 || options.time_budget_ms <= 0) return initial;
  detail::SwapState state(graph, alloc, options, initial, budget);
  if (!state.ready()) return initial;
  const double search_ms = budget.remaining_ms() - 1.1 * state.evaluation_ms() - 0.03 * options.time_budget_ms;
  SwapPicker pick(state, alloc, options.seed);
  const long long stale_limit = std::max<long long>(kMinStaleAttempts, 2LL * graph.num_tasks());
  report.converged = true;
  for (const auto& [goal, fraction] : {std::pair{detail::SwapState::Goal::objective, 1 - kShortenShare},
                                       std::pair{detail::SwapState::Goal::shorten, kShortenShare}}) {
    state.set_goal(goal, kShortenSlack);
    AttemptBudget phase(search_ms * fraction,
                        max_attempts == 0 ? 0 : std::max<long long>(1, std::llround(max_attempts * fraction)));
    bool at_optimum = false;
    for (long long stale = 0; !phase.spent();) {
      if (stale >= stale_limit) {
        const long long kept = sweep_near_moves(state, alloc, phase);
        if (kept < 0) break;
        ++report.sweeps;
        report.kept += kept;
        if ((at_optimum = kept == 0)) break;
        stale = 0;
        continue;
      }
      const TaskId a = pick.first(goal == detail::SwapState::Goal::objective);
      if ((at_optimum = a < 0)) break;
      if (phase.try_swap(state, a, pick.partner(a))) stale = 0, ++report.kept;
      else ++stale;
    }
    report.attempts += phase.done();
    report.converged = report.converged && at_optimum;
  }
  if (state.mapping() == initial || state.exact_objective() > state.initial_objective()) return initial;
  return state.mapping();
}

Mapping map_refine(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  detail::RefineReport report;
  return detail::refine_mapping(graph, alloc, options, report);
}

}  // namespace rankmap::mapping
