// The emahd mapper: mahd from many start nodes, keeping the best mapping by the objective.
#include <rankmap/mapping/hilbert.hpp>
#include <rankmap/mapping/mapping.hpp>

#include "mahd_problem.hpp"
#include "network_geometry.hpp"
#include "objective_score.hpp"
#include "parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <optional>

namespace rankmap::mapping {

namespace {

/// The most central node first (so emahd is never worse than mahd when its budget covers scoring
/// that node's two runs), then the others along the Hilbert curve (off grids: in network node
/// order, switch by switch) in bit-reversed (van der Corput) order, so that any prefix of the list
/// is spread evenly over the allocation; at most `limit` nodes (0: all).
std::vector<int> start_nodes(const topology::Allocation& alloc, int most_central, long long limit) {
  const std::vector<int> curve =
      alloc.network().is_grid() ? hilbert_node_order(alloc) : detail::network_node_order(alloc);
  const std::size_t n = curve.size();
  int bits = 0;
  while ((std::size_t{1} << bits) < n) ++bits;
  std::vector<int> starts{most_central};
  for (std::size_t i = 0; i < (std::size_t{1} << bits); ++i) {
    std::size_t reversed = 0;
    for (int b = 0; b < bits; ++b) reversed |= ((i >> b) & 1u) << (bits - 1 - b);
    if (reversed < n && curve[reversed] != most_central) starts.push_back(curve[reversed]);
  }
  if (limit > 0 && static_cast<long long>(starts.size()) > limit) starts.resize(static_cast<std::size_t>(limit));
  return starts;
}

constexpr double kUnscored = std::numeric_limits<double>::infinity();

struct Candidate {
  detail::Score score;
  std::size_t index = 0;
  Mapping mapping;
  bool better_than(const Candidate& other) const {
    if (other.mapping.empty()) return true;
    if (score < other.score) return true;
    return !(other.score < score) && index < other.index;
  }
};

}  // namespace

// Runs mahd from every start node (or the first N of start_nodes() with `emahd:N`): the first with
// both greedy variants as mahd does, the others with by_id. The runs share options.threads
// threads; each mapping is scored by the objective and the best kept, ties going to the earlier
// run. Within the time budget: the concentration's partition stops at half of it (as in mahd), a
// thread starts no run once the time left is less than the last run took, and a run the deadline
// or its scoring cuts short is dropped, except the first, which is kept unscored and is the answer
// unless another run was scored (the tasks its greedy had not placed keep the launcher's order of
// the free slots). So the runs end within the budget.
Mapping map_emahd(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  const Deadline deadline(options.time_budget_ms);
  const detail::MahdParameters params = detail::parse_mahd_parameters(options, "emahd", true);
  const Deadline partition_deadline(detail::kConcentrationShare * options.time_budget_ms);
  const detail::MahdProblem problem(graph, alloc, params.concentrate, options.seed, &partition_deadline);
  const detail::ObjectiveScorer score(graph, alloc, options);
  const std::vector<int> starts = start_nodes(alloc, problem.placer().most_central_node(), params.max_starts);
  const std::size_t runs = starts.size() + 1;  // the first start with both variants, the others by_id
  const std::size_t threads = std::clamp<std::size_t>(static_cast<std::size_t>(std::max(1, options.threads)), 1,
                                                      runs);
  std::vector<Candidate> best(threads);
  // The last run finished on any worker (0: none yet). Runs take about as long on every worker; one
  // that went by its own last run would skip every item left, since a skip takes the next item at
  // once, while another worker could still fit one.
  std::atomic<double> last_run_ms{0.0};
  std::atomic<bool> cut{false};  // a run the deadline cut short: no later one can finish either
  detail::parallel_for(runs, static_cast<int>(threads), [&](std::size_t i, int worker) {
    if (i > 0 && (cut || deadline.remaining_ms() < last_run_ms)) return;
    const auto start = std::chrono::steady_clock::now();
    const auto variant = i == 1 ? detail::GreedyVariant::from_centre : detail::GreedyVariant::by_id;
    const detail::Placement run = problem.placer().place(starts[i == 0 ? 0 : i - 1], variant, &deadline);
    if (run.cut && i > 0) return void(cut = true);
    Candidate c{{}, i, problem.mapping(run.node_of_item)};
    // A cut first run is the answer only if nothing else finishes: it is not worth a scoring. No
    // scoring runs past the deadline: one takes 70 to 90 ms for fft2d on 400 scattered nodes with
    // 4 per node, and scoring the first run past its deadline took auto up to 215 ms of its 200.
    const std::optional<detail::Score> s = run.cut ? std::nullopt : score.within(c.mapping, deadline);
    if (!s && i > 0) return void(cut = true);
    c.score = s.value_or(detail::Score{kUnscored, kUnscored});
    if (c.better_than(best[worker])) best[worker] = std::move(c);
    last_run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  });
  Candidate* winner = &best[0];
  for (Candidate& c : best)
    if (!c.mapping.empty() && c.better_than(*winner)) winner = &c;
  return std::move(winner->mapping);
}

}  // namespace rankmap::mapping
