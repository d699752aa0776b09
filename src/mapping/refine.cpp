// The refine mapper: pairwise-swap local search on the objective, within the time budget.
#include <rankmap/mapping/mapping.hpp>

#include "parameter.hpp"
#include "swap_state.hpp"

#include <chrono>
#include <random>

namespace rankmap::mapping {

namespace {

constexpr int kClockEvery = 8;                ///< attempts between two looks at the clock
constexpr long long kMinStaleAttempts = 20000;  ///< give up after max(this, 20 P) fruitless attempts in a row

Mapping starting_mapping(const graph::CommGraph& graph, const MapOptions& options) {
  if (!options.initial) return identity_mapping(graph.num_tasks());
  const Mapping& m = *options.initial;
  if (static_cast<TaskId>(m.size()) != graph.num_tasks() || !is_permutation(m))
    throw InputError("refine: the initial mapping is not a permutation of the graph's " +
                     std::to_string(graph.num_tasks()) + " tasks");
  return m;
}

/// Picks swap candidates: the first task mostly among those loading the hottest channel (under
/// MCL), the partner half the time on or next to the node of one of the first task's neighbours,
/// else anywhere.
class SwapPicker {
 public:
  SwapPicker(detail::SwapState& state, const topology::Allocation& alloc, std::uint64_t seed)
      : state_(state), alloc_(alloc), rng_(seed) {}

  /// -1 when the objective is already 0.
  TaskId first() {
    if (state_.objective() <= 0) return -1;
    const std::vector<TaskId>& hot = state_.hot_tasks();
    if (!hot.empty() && rng_() % 8 != 0) return hot[rng_() % hot.size()];
    return random_task();
  }

  TaskId partner(TaskId a) {
    const auto near = state_.neighbours().out_neighbors(a);
    if (near.empty() || rng_() % 2 == 0) return random_task();
    int node = state_.node_of(near[rng_() % near.size()]);
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

// Starts from options.initial (the previous chain stage; the identity if none), tries swaps
// until the time budget or `refine:N` attempts are spent, or until max(20000, 20 P) attempts in a
// row brought nothing, and returns the result only if the objective recomputed from scratch is
// not worse than the input's. The budget covers the setup and the final check: the search stops
// early by the setup time (the final check costs about as much) plus 3% of the budget.
Mapping map_refine(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const long long max_attempts = detail::count_parameter(options, "refine", 0);
  Mapping initial = starting_mapping(graph, options);
  if (alloc.num_nodes() < 2 || graph.num_edges() == 0 || options.time_budget_ms <= 0) return initial;
  detail::SwapState state(graph, alloc, options, initial);
  const double setup_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const Deadline deadline(options.time_budget_ms * 0.97 - 2 * setup_ms);
  SwapPicker pick(state, alloc, options.seed);
  const long long stale_limit = std::max<long long>(kMinStaleAttempts, 20LL * graph.num_tasks());
  long long stale = 0;
  for (long long attempt = 0; max_attempts == 0 || attempt < max_attempts; ++attempt) {
    if (attempt % kClockEvery == 0 && deadline.passed()) break;
    if (stale >= stale_limit) break;
    const TaskId a = pick.first();
    if (a < 0) break;
    const TaskId b = pick.partner(a);
    if (state.node_of(a) != state.node_of(b) && state.try_swap(a, b)) stale = 0;
    else ++stale;
  }
  if (state.mapping() == initial || state.exact_objective() > state.initial_objective()) return initial;
  return state.mapping();
}

}  // namespace rankmap::mapping
