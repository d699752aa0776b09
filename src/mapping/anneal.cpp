// The anneal mapper: simulated annealing of pairwise swaps. It reaches placements that a descent
// such as refine cannot, because every single swap on the way there makes some phase worse first
// (NAS-BT's sweeps on a 3D torus: docs/algorithms.md).
#include "anneal.hpp"
#include "objective_score.hpp"
#include "parameter.hpp"
#include "swap_moves.hpp"
#include "swap_state.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

namespace rankmap::mapping {

namespace {

/// The starting temperature as a fraction of the initial score; it falls linearly to 0. On NAS-BT's
/// seven phases on torus:8x8x8 (1,024 tasks) with 240 s, 2e-4 and 1e-4 ended at phased MCLs 6% and
/// 9% below 4e-4's, which wandered for most of its budget. On a training set of other sweeps, not
/// reported anywhere, 2e-4 and 4e-4 tied and lower values were worse (docs/algorithms.md, anneal).
constexpr double kInitialTemperature = 2e-4;
/// At these many evenly spaced checkpoints the weight of the channels at the maximum is lowered
/// (from 1 to 0, with the temperature) and the mapping kept if its objective is the best yet (a
/// copy costs O(P), so not at every improvement).
constexpr int kCheckpoints = 64;
constexpr int kClockEvery = 16;  ///< attempts between two looks at the clock

/// How far through its budget the search is: by attempts with `anneal:N` (reproducible), else by time.
class Progress {
 public:
  Progress(double search_ms, long long max_attempts)
      : start_(std::chrono::steady_clock::now()), search_ms_(search_ms), max_attempts_(max_attempts) {}
  /// Counts one attempt and returns the fraction done, at least 1 when the budget is spent.
  double step() {
    ++attempts_;
    if (max_attempts_ > 0) return static_cast<double>(attempts_) / static_cast<double>(max_attempts_);
    if (attempts_ % kClockEvery == 0)
      done_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count() / search_ms_;
    return done_;
  }

 private:
  std::chrono::steady_clock::time_point start_;
  double search_ms_;
  long long max_attempts_;
  long long attempts_ = 0;
  double done_ = 0;
};

/// Runs the search on `state` and returns the best mapping it saw by the objective (checkpoints and the end).
Mapping anneal(detail::SwapState& state, const topology::Allocation& alloc, const MapOptions& options,
               double search_ms, long long max_attempts) {
  detail::SwapPicker pick(state, alloc, options.seed);
  std::mt19937_64 coin(options.seed ^ 0x9e3779b97f4a7c15ULL);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const double start_temperature = kInitialTemperature * state.annealing_score();
  Mapping best = state.mapping();
  double best_objective = state.objective();
  Progress progress(search_ms, max_attempts);
  int next_checkpoint = 1;
  for (double done = 0; done < 1; done = progress.step()) {
    if (done * kCheckpoints >= next_checkpoint) {
      next_checkpoint = static_cast<int>(done * kCheckpoints) + 1;
      if (state.objective() < best_objective) best = state.mapping(), best_objective = state.objective();
      state.scale_count_weight(1 - done);
      if (options.progress) options.progress(done);
    }
    const TaskId a = pick.first(false);
    if (a < 0) break;
    const TaskId b = pick.partner(a);
    if (state.node_of(a) == state.node_of(b)) continue;
    // Metropolis: a rise d is kept with probability exp(-d / T), i.e. when d <= -T ln(u).
    const double slack = -start_temperature * (1 - done) * std::log(1.0 - uniform(coin));
    state.try_swap_within(a, b, slack);
  }
  if (state.objective() <= best_objective) best = state.mapping();
  return best;
}

}  // namespace

// Starts from options.initial (the identity if none). The result is returned only if its
// objective is not worse than the input's, which the setup measured. The budget covers the setup
// and one final scoring, of the result; a timed run whose scoring the deadline cuts returns the input.
Mapping detail::anneal_mapping(const graph::CommGraph& graph, const topology::Allocation& alloc,
                               const MapOptions& options, AnnealReport& report) {
  report = {};
  const Deadline budget(options.time_budget_ms);
  const long long max_attempts = detail::count_parameter(options, "anneal", 0);
  const Mapping initial = detail::starting_mapping(graph, options, "anneal");
  if (alloc.num_nodes() < 2 || graph.num_edges() == 0 || options.time_budget_ms <= 0) return initial;
  detail::SwapState state(graph, alloc, options, initial, budget);
  if (!state.ready()) return initial;
  const double search_ms = detail::search_ms_left(budget, options.time_budget_ms, 1, state.evaluation_ms());
  if (search_ms <= 0 && max_attempts == 0) return initial;
  Mapping result = anneal(state, alloc, options, std::max(search_ms, 1.0), max_attempts);
  if (result == initial) return initial;
  // The annealing score also rewards fewer channels at the MCL, which the objective does not see:
  // a result with the input's objective is kept.
  // With `anneal:N` the answer must not depend on the clock.
  const detail::ObjectiveScorer scorer(graph, alloc, options);
  const std::optional<detail::Score> score = max_attempts > 0 ? scorer(result) : scorer.within(result, budget);
  if (!score || score->objective > state.initial_objective()) return initial;
  report.score = score;
  return result;
}

Mapping map_anneal(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  detail::AnnealReport report;
  return detail::anneal_mapping(graph, alloc, options, report);
}

}  // namespace rankmap::mapping
