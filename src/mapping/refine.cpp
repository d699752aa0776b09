// The refine mapper: pairwise-swap local search on the objective, within the time budget.
#include <rankmap/mapping/mapping.hpp>

#include "parameter.hpp"
#include "swap_state.hpp"

#include <cmath>
#include <random>

namespace rankmap::mapping {

namespace {

constexpr int kClockEvery = 4;                ///< attempts between two looks at the clock
constexpr long long kMinStaleAttempts = 20000;  ///< a phase ends after max(this, 20 P) fruitless attempts in a row
/// The share of the search spent shortening routes without raising the MCL. Moves that only
/// spread load lengthen routes (on fragmented allocations mahd+refine gained 3% of hop-bytes
/// back for 1% of MCL with a quarter of 4,000 attempts).
constexpr double kShortenShare = 0.25;

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

}  // namespace

// Starts from options.initial (the previous chain stage; the identity if none) and tries swaps
// in two phases: three quarters of the search on the objective, one quarter (under MCL) on
// shortening routes without raising the MCL. A phase ends when its share of the time budget or
// of the `refine:N` attempts is spent, or after max(20000, 20 P) fruitless attempts in a row.
// The result is returned only if the objective recomputed from scratch is not worse than the
// input's. The budget covers the setup and the final check: the setup (routing every flow once)
// gives up when the budget runs out, and the search stops early by the time the setup's
// evaluation took (the final check costs the same) plus 3% of the budget.
Mapping map_refine(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  const Deadline budget(options.time_budget_ms);
  const long long max_attempts = detail::count_parameter(options, "refine", 0);
  Mapping initial = starting_mapping(graph, options);
  if (alloc.num_nodes() < 2 || graph.num_edges() == 0 || options.time_budget_ms <= 0) return initial;
  detail::SwapState state(graph, alloc, options, initial, budget);
  if (!state.ready()) return initial;
  const double search_ms = budget.remaining_ms() - 1.1 * state.evaluation_ms() - 0.03 * options.time_budget_ms;
  SwapPicker pick(state, alloc, options.seed);
  const long long stale_limit = std::max<long long>(kMinStaleAttempts, 20LL * graph.num_tasks());
  for (const auto& [goal, fraction] : {std::pair{detail::SwapState::Goal::objective, 1 - kShortenShare},
                                       std::pair{detail::SwapState::Goal::shorten, kShortenShare}}) {
    state.set_goal(goal);
    const Deadline deadline(search_ms * fraction);
    const long long attempts = max_attempts == 0 ? 0 : std::max<long long>(1, std::llround(max_attempts * fraction));
    long long stale = 0;
    for (long long attempt = 0; attempts == 0 || attempt < attempts; ++attempt) {
      if (attempt % kClockEvery == 0 && deadline.passed()) break;
      if (stale >= stale_limit) break;
      const TaskId a = pick.first(goal == detail::SwapState::Goal::objective);
      if (a < 0) break;
      const TaskId b = pick.partner(a);
      if (state.node_of(a) != state.node_of(b) && state.try_swap(a, b)) stale = 0;
      else ++stale;
    }
  }
  if (state.mapping() == initial || state.exact_objective() > state.initial_objective()) return initial;
  return state.mapping();
}

}  // namespace rankmap::mapping
