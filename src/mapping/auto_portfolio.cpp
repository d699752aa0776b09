// The auto mapper: a portfolio of starting mappings, each improved by refine (and, with time left,
// the best annealed), the best by the objective kept.
//
// One greedy start is fragile on real graphs: mahd can break structure that the launcher's order
// already had (a 26-neighbour trace on torus:8x8x8 came out 2.8 times the identity's MCL), and
// refine never recovers from a bad start, since it only keeps swaps that help. Refining several
// starts of different kinds and keeping the best makes the result no worse than the best start
// refined, and never worse than the launcher's order, which is always a member.
#include "anneal.hpp"
#include "auto_candidate.hpp"
#include "auto_hedge.hpp"
#include "objective_score.hpp"
#include "parallel_for.hpp"
#include "portfolio.hpp"
#include "refine.hpp"
#include "symmetrized_memo.hpp"
#include "task_grid.hpp"

#include <rankmap/mapping/acceptance.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include "core_algorithm_functions.hpp"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <charconv>
#include <cmath>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>

namespace rankmap::mapping {

namespace {

/// The starts besides the launcher's order (always the first) and the caller's initial mapping,
/// in the order they are built; each runs on the networks it names. The order matters when one
/// evaluation costs a good part of the budget (10 to 100 ms at 1,000 scattered nodes): members
/// are built only while time is left, so the one that wins most (bisect) comes first, and the
/// cheap but rarely winning curves last; on the training set at 200 ms, within 5% of the best
/// single algorithm on 127 to 131 of 170 in four runs, against 121 and 124 in the earlier order
/// (bench/quality/results/training-2026-11-27). Chosen on the quality table's
/// instances (docs/algorithms.md, "auto"), bisect on its training set: each of them won instances
/// there, and each costs at most one routing of the flows per candidate, which keeps 16,384 ranks
/// within the runtime's budget. A searching member gets its share of the whole budget: shares of the
/// time left were worse on the training set at 200 ms (90 of 170 instances within 5% of the best
/// single algorithm, against 111). On fat-trees and dragonflies emahd and tree's multisection run:
/// on the training set at 200 ms, geometric mean MCL 0.521 of the launcher's order with both, 0.588
/// with emahd alone, 0.527 with tree:start alone; adding gge or mahd did not help (docs/algorithms.md).
/// On the whole machine split goes first: at 16,384 ranks on torus:16x16x16 the 200 ms ran out
/// before it in a third of the runs, where its mapping had 0.28 of the launcher's order's MCL and
/// bisect's and emahd's, cut short, were worse than that order; on the training set the change was
/// neutral (within 5% of the best single algorithm on 125 to 130 of 170, against 126 to 129).
/// Budget shares: bisect 0.4 and dimorder-best 0.2 (from 0.2 and 0.1). At 8,192 tasks bisect needs
/// 110 to 150 ms, and at 40 ms it returned its start; dimorder-best at 20 ms scored 2 or 3 of 24
/// orders and missed the one with half the MCL (stencil27 on mesh:4x8x16 with 2 per node). On the
/// training set at 200 ms, three runs each: 137, 138, 138 of 170 within 5% of the best single
/// algorithm, against 126 to 129; bisect 0.3 gave 132 to 136, 0.5 gave 134 to 137, 0.6 133 to 136,
/// dimorder-best 0.3 129 to 133, emahd 0.1 134 to 137 (bench/quality/results/training-2026-11-28-shares).
constexpr detail::PortfolioMember kCoreMembers[] = {
    // Why: on the training set at 200 ms, within 5% of the best single algorithm on 111 of 170 with it, 94 without.
    {"bisect", &map_bisect, "", 0.4, 0, 0, detail::MemberNetworks::grids},
    {"emahd", &map_emahd, "", 0.15},
    {"split", &map_split, "", 0, 0, 0, detail::MemberNetworks::grids, true},
    {"dimorder-best", &map_dimorder_best, "", 0.2, 0, 0, detail::MemberNetworks::grids},
    {"hilbert", &map_hilbert, "", 0, 0, 0, detail::MemberNetworks::grids},
    {"tree:start", &map_tree, "start", 0.25, 0, 0, detail::MemberNetworks::trees},
};

/// Whether `member` runs on `network`.
bool runs_on(const detail::PortfolioMember& member, const topology::Network& network) {
  switch (member.networks) {
    case detail::MemberNetworks::grids: return network.is_grid();
    case detail::MemberNetworks::trees: return !network.is_grid();
    case detail::MemberNetworks::all: return true;
  }
  return true;
}

/// The share of the refine time that every start gets a slice of; the best start after that
/// continues with the rest. Exploring every start guards against a bad greedy start, and the one long
/// search makes auto as good as its best member refined alone. Why half: on the training set at
/// 200 ms, a quarter (98 of 170 within 5% of the best single algorithm, against 111), successive
/// halving of the starts (90) and refining only the best 3 starts (93) were all worse.
constexpr double kExploreShare = 0.5;

/// The least time, as a share of the budget, that detail::annealing_ms() gives.
constexpr double kAnnealMinShare = 0.1;
/// detail::annealing_ms() gives at most this many times as long as auto took before it, so that a
/// small graph that converged in a fraction of a long budget is not kept waiting for the whole of
/// it (`rankmap map` at 10 s). On the training set at 200 ms, one run each: 145 of 170 within 5% of the
/// best single algorithm and fragmented 0.486 with 1, 145 and 0.485 with 2, 143 and 0.488 (twice)
/// without a limit, against 140 to 145 and 0.490 to 0.496 without annealing.
constexpr double kAnnealRatio = 1;

/// The share of the budget kept for what follows auto's own deadline: a scoring or a routing stops
/// only between groups of flows, and aggregating the flows only between nodes (before c7e3017 not
/// at all: alltoall on 1,000 scattered nodes ended 2 to 4 ms past its 200). Without it, the training set and the
/// held-out table took up to 204 and 206 ms of 200 in one run each; with it, 200.3 and 197.2 ms.
constexpr double kAfterDeadlineShare = 0.03;

/// The most routings under the network's static routing that the search leaves time for, and the
/// most of the budget they may take (detail::hedge_reserve_ms()).
constexpr int kCheapHedgeRoutings = 4;
constexpr double kCheapHedgeShare = 0.05;

/// The least time, in evaluations, for which a refine is begun (worth_refining()).
constexpr double kEvaluationsPerRefine = 2;

/// With `attempts=N` nothing depends on the clock; this budget only bounds a run that never converges.
constexpr double kUnboundedMs = 1e9;

using detail::Candidate;
using detail::DorHedge;
using detail::score_less;

/// `attempts=N` from `auto:attempts=N` (0 when absent: the wall-clock budget rules).
long long attempts_parameter(const MapOptions& options) {
  const std::string& text = options.parameter;
  if (text.empty()) return 0;
  constexpr std::string_view key = "attempts=";
  long long value = 0;
  const char* begin = text.data() + key.size();
  const char* end = text.data() + text.size();
  if (text.rfind(key, 0) == 0) {
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec == std::errc{} && ptr == end && value >= 1) return value;
  }
  throw InputError("auto: parameter '" + text + "' is not attempts=N with N a positive integer");
}

/// The launcher's order, scored, and the time that scoring it took: what every later evaluation is
/// expected to cost. Nothing when a timed run's scoring does not end within half the time to
/// `deadline`: no rival could be scored after it, so auto would keep that order anyway, and the
/// runtime may as well have it sooner.
std::optional<std::pair<Candidate, double>> scored_launcher_order(TaskId tasks, const detail::ObjectiveScorer& score,
                                                                  const Deadline& deadline, bool timed) {
  Candidate identity{"identity", identity_mapping(tasks), {}, {}};
  const auto start = std::chrono::steady_clock::now();
  if (timed) {
    const std::optional<detail::Score> s =
        score.within(identity.mapping, Deadline(deadline.remaining_ms() / 2), &identity.loads);
    if (!s) return std::nullopt;
    identity.score = *s;
  } else {
    identity.score = score(identity.mapping, &identity.loads);
  }
  return std::pair{std::move(identity),
                   std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count()};
}

/// Whether `member` takes part at all: its network, its task limit, and the budget it needs.
bool takes_part(const detail::PortfolioMember& member, const graph::CommGraph& graph, const topology::Allocation& alloc,
                const MapOptions& options, bool timed) {
  return runs_on(member, alloc.network()) && (member.max_tasks <= 0 || graph.num_tasks() <= member.max_tasks) &&
         !(timed && options.time_budget_ms < member.min_budget_ms);
}

/// The members in the order they are built: on a whole machine, for a graph with a task grid, the
/// ones that go first there lead. Without a task grid split lays the tasks out in rank order, and
/// going first only cost the others an evaluation of it (60 ms for 8,192 random tasks on
/// torus:8x8x8), which left bisect too little time to beat the launcher's order.
std::vector<const detail::PortfolioMember*> build_order(std::span<const detail::PortfolioMember> members,
                                                        const graph::CommGraph& graph,
                                                        const topology::Allocation& alloc) {
  std::vector<const detail::PortfolioMember*> order;
  for (const detail::PortfolioMember& member : members) order.push_back(&member);
  if (alloc.num_nodes() == alloc.network().num_nodes() && !detect_task_grid(graph).empty())
    std::stable_partition(order.begin(), order.end(), [](const auto* m) { return m->first_on_whole_machine; });
  return order;
}

/// The options `member` is built with: its share of the budget, times `scale`, or the time left less
/// one evaluation, whichever is less; one thread, since the members themselves are spread over the
/// threads; none of the caller's hooks.
MapOptions member_options(const detail::PortfolioMember& member, const MapOptions& options, double scale,
                          double evaluation_ms, const Deadline& deadline, bool timed) {
  MapOptions result = options;
  result.parameter = std::string(member.parameter);
  result.initial = nullptr;
  result.choice = nullptr;
  result.progress = nullptr;
  result.threads = 1;
  result.time_budget_ms =
      timed ? std::min(member.budget_share * scale * options.time_budget_ms, deadline.remaining_ms() - evaluation_ms)
            : kUnboundedMs;
  return result;
}

/// How much longer than its share a member may search when `threads` members are built at once: so
/// much that the member with the largest share takes the time all of them take one after another
/// (the budget times the sum of the shares), never more than `threads` times its share.
double share_scale(std::span<const detail::PortfolioMember* const> members, int threads) {
  double sum = 0, largest = 0;
  for (const detail::PortfolioMember* m : members) sum += m->budget_share, largest = std::max(largest, m->budget_share);
  return largest > 0 ? std::clamp(sum / largest, 1.0, static_cast<double>(std::max(1, threads))) : 1.0;
}

bool holds(const std::vector<Candidate>& candidates, const Mapping& m) {
  return std::any_of(candidates.begin(), candidates.end(), [&](const Candidate& c) { return c.mapping == m; });
}

/// Whether a refine given `ms` can change anything: it routes every flow of the mapping it searches
/// from once to set up and once more to check a changed result, and the setup sorts every edge
/// before it can be stopped. Refines begun with a slice of 1.6 ms at 16,384 tasks took one
/// evaluation each (12 ms) and auto to 216 ms of its 200.
bool worth_refining(double ms, double evaluation_ms) { return ms > kEvaluationsPerRefine * evaluation_ms; }

/// The options of a search from `start` (refine or anneal) with `ms` of budget and `parameter`, none
/// of the caller's hooks.
MapOptions search_options(const MapOptions& options, const Candidate& start, double ms, std::string parameter) {
  MapOptions result = options;
  result.initial = &start.mapping;
  result.choice = nullptr;
  result.progress = nullptr;
  result.parameter = std::move(parameter);
  result.time_budget_ms = ms;
  return result;
}

/// Refines `start` with `ms` of budget (or `attempts` swaps, or until `stop` is set) and returns the
/// better of the two, named `+refine` after its start when it is the refined one (once: a refined
/// start refined again keeps its name).
Candidate refined(const Candidate& start, const graph::CommGraph& graph, const topology::Allocation& alloc,
                  const MapOptions& options, double ms, long long attempts, double evaluation_ms,
                  const std::atomic<bool>* stop = nullptr) {
  constexpr std::string_view suffix = "+refine";
  detail::RefineReport report;
  // The start's score is its objective: refine need not route its flows again to learn it.
  const detail::KnownInput known{start.score.objective, evaluation_ms, start.loads,
                                 start.scoring_ms > 0 ? start.scoring_ms : evaluation_ms};
  Mapping m = detail::refine_mapping(
      graph, alloc, search_options(options, start, ms, attempts > 0 ? std::to_string(attempts) : std::string()), report,
      &known, stop);
  if (m == start.mapping) return start;
  Candidate result{start.name.ends_with(suffix) ? start.name : start.name + std::string(suffix), std::move(m), {}, {}};
  // Refine has just routed every flow of its result to check it; routing them again for the score
  // cost auto one evaluation per refined start (40 to 280 ms on 1,000 to 2,000 scattered nodes).
  result.score = {report.objective.value(), metrics::hop_bytes(graph, alloc, result.mapping)};
  return score_less(result, start) ? result : start;
}

/// A worker with no member left to build refines the best start built so far while the others
/// build theirs, instead of waiting for them: on the training set's fragmented allocations at
/// 200 ms, 1.60 of the 2 threads were busy on average while the starts were built (1.91 with this),
/// and within 5% of the best single algorithm on 133.3 of 170 instead of 129.8, fragmented 0.490
/// of the launcher's order's MCL instead of 0.501 (docs/algorithms.md). The refine stops once no
/// member is being built, and ends by the time the last member begun is due (its budget and a
/// scoring after it). The start stays, unrefined and settled: the hedge may refuse what refine
/// made of it and pass the start.
class WhileBuilding {
 public:
  /// `built` holds the starts as they are built, under `mutex`; `deadline` is the building's.
  WhileBuilding(std::vector<std::optional<Candidate>>& built, std::mutex& mutex, const Deadline& deadline)
      : built_(built), mutex_(mutex), deadline_(deadline), due_left_(deadline.remaining_ms()) {}
  /// A member begins, due in `ms`.
  void begin(double ms) {
    const std::lock_guard lock(mutex_);
    ++building_;
    due_left_ = std::min(due_left_, deadline_.remaining_ms() - ms);
  }
  void end() {
    const std::lock_guard lock(mutex_);
    if (--building_ == 0) none_building_ = true;
  }
  /// Refines the best start not refined yet, while members are being built, by
  /// refine(start, ms, stop), which searches for at most `ms` or until `stop` is set.
  void refine_best(const std::function<Candidate(const Candidate&, double, const std::atomic<bool>*)>& refine) {
    std::optional<Candidate> start;
    std::size_t k = 0;
    double ms = 0;
    {
      const std::lock_guard lock(mutex_);
      if (building_ == 0) return;
      none_building_ = false;
      for (std::size_t j = 0; j < built_.size(); ++j)
        if (built_[j] && !built_[j]->settled && (!start || score_less(*built_[j], *start))) start = built_[j], k = j;
      if (!start) return;
      built_[k]->settled = true;
      ms = deadline_.remaining_ms() - due_left_;
    }
    Candidate c = refine(*start, ms, &none_building_);
    const std::lock_guard lock(mutex_);
    if (c.mapping == start->mapping)
      built_[k]->settled = false;
    else
      refined_.push_back(std::move(c));
  }
  /// What refine_best() made, once the building has ended.
  std::vector<Candidate>& refined() { return refined_; }

 private:
  std::vector<std::optional<Candidate>>& built_;
  std::mutex& mutex_;
  const Deadline& deadline_;
  int building_ = 0;
  double due_left_;  ///< what deadline_.remaining_ms() reads when the last member begun is due
  std::atomic<bool> none_building_{false};
  std::vector<Candidate> refined_;
};

/// Builds and scores every start the budget leaves time for, after the launcher's order and the
/// caller's initial mapping (a precomputed one, or the previous stage of a chain), which take part
/// always. options.threads members are built at once, taken in order; a member starts only while the
/// time left covers scoring its result and the most a member so far ran past its budget, and a
/// score the deadline cuts short ends the building. Members' work on the graph before they can look
/// at the clock grows with its edges: on alltoall on torus:8x8x8 with 2 per node bisect, emahd and
/// dimorder-best each took 70 to 85 ms with a 40 ms budget, and the members begun after them took
/// auto up to 222 ms of 200. The starts keep the members' order whatever thread built them, so that
/// ties break alike. A timed auto's workers with no member left to build refine meanwhile
/// (WhileBuilding); their refined starts follow the members' starts.
std::vector<Candidate> build_starts(const Candidate& launcher_order, double evaluation_ms,
                                    const graph::CommGraph& graph, const topology::Allocation& alloc,
                                    const MapOptions& options, std::span<const detail::PortfolioMember> members,
                                    const detail::ObjectiveScorer& score, const Deadline& deadline, bool timed) {
  std::vector<Candidate> starts{launcher_order};
  if (options.initial && *options.initial != starts.front().mapping)
    starts.push_back({"input", *options.initial, score(*options.initial), {}});
  std::atomic<double> overrun_ms{0};
  const auto no_time_for_a_member = [&] { return timed && deadline.remaining_ms() <= evaluation_ms + overrun_ms; };
  // No member could start, so the shared memos below would be made for nothing: on alltoall on
  // torus:8x8x8 with 2 per node, symmetrizing its million edges took 60 to 75 ms after the
  // launcher's order's scoring had left no member time, and auto 123 to 160 ms (once 215 ms) where
  // it now takes 75 to 118.
  if (no_time_for_a_member()) return starts;
  std::vector<const detail::PortfolioMember*> order;
  for (const detail::PortfolioMember* member : build_order(members, graph, alloc))
    if (takes_part(*member, graph, alloc, options, timed)) order.push_back(member);
  const double scale = share_scale(order, options.threads);
  std::vector<std::optional<Candidate>> built(order.size());
  std::mutex built_mutex;
  // Only earlier members count: a later one that built the same mapping first must not take its name.
  const auto is_new = [&](const Mapping& m, std::size_t k) {
    const std::lock_guard lock(built_mutex);
    return !holds(starts, m) &&
           std::none_of(built.begin(), built.begin() + static_cast<std::ptrdiff_t>(k),
                        [&](const auto& c) { return c && c->mapping == m; });
  };
  std::atomic<bool> ended{false};
  const auto note_overrun = [&](double ms) {
    for (double seen = overrun_ms; ms > seen && !overrun_ms.compare_exchange_weak(seen, ms);) continue;
  };
  // Member k's start, scored; nothing when another member built it first, or time ran out.
  const auto build_member = [&](const detail::PortfolioMember& m, std::size_t k, const MapOptions& member,
                                const Deadline& given) -> std::optional<Candidate> {
    Mapping mapping = m.map(graph, alloc, member);
    note_overrun(-given.remaining_ms());
    if (!is_new(mapping, k) || (timed && deadline.passed())) return std::nullopt;
    const auto scoring_start = std::chrono::steady_clock::now();
    detail::ObjectiveScorer::Loads loads;
    const std::optional<detail::Score> s = timed ? score.within(mapping, deadline, &loads) : score(mapping, &loads);
    if (!s) return ended = true, std::nullopt;
    const std::chrono::duration<double, std::milli> scoring = std::chrono::steady_clock::now() - scoring_start;
    return Candidate{std::string(m.name), std::move(mapping), *s, {}, scoring.count(), std::move(loads)};
  };
  // Memos are per thread: the other threads get the task grid and the symmetrized graph that the
  // caller's thread made.
  const bool helped = options.threads > 1 && order.size() > 1;
  const std::vector<int> task_grid = helped ? detect_task_grid(graph) : std::vector<int>();
  const std::shared_ptr<const graph::CommGraph> symmetric = helped ? detail::symmetrized(graph) : nullptr;
  WhileBuilding meanwhile(built, built_mutex, deadline);
  const auto refine_meanwhile = [&] {
    meanwhile.refine_best([&](const Candidate& start, double ms, const std::atomic<bool>* stop) {
      return worth_refining(ms, evaluation_ms)
                 ? refined(start, graph, alloc, options, ms, 0, evaluation_ms, stop)
                 : start;
    });
  };
  const std::size_t waiting = timed ? static_cast<std::size_t>(std::max(1, options.threads)) - 1 : 0;
  detail::parallel_for(order.size() + waiting, options.threads, [&](std::size_t k, int worker) {
    if (k >= order.size()) return refine_meanwhile();
    if (ended || no_time_for_a_member()) return void(ended = true);
    std::optional<detail::TaskGridMemo> known;
    std::optional<detail::SymmetrizedMemo> shared;
    if (worker > 0) known.emplace(graph, task_grid), shared.emplace(graph, symmetric);
    const MapOptions member = member_options(*order[k], options, scale, evaluation_ms, deadline, timed);
    const Deadline given(member.time_budget_ms);
    meanwhile.begin(member.time_budget_ms + evaluation_ms);
    std::optional<Candidate> c = build_member(*order[k], k, member, given);
    meanwhile.end();
    if (!c) return;
    const std::lock_guard lock(built_mutex);
    built[k] = std::move(*c);
  });
  for (std::optional<Candidate>& c : built)
    if (c && !holds(starts, c->mapping)) starts.push_back(std::move(*c));
  for (Candidate& c : meanwhile.refined())
    if (!holds(starts, c.mapping)) starts.push_back(std::move(c));
  return starts;
}

/// Refines the starts, best first, each with an equal slice of kExploreShare of the time left (time a
/// converged search leaves goes to the later ones; refine checks its result within its slice);
/// `threads` of them at once. Once the slices are too short to be worth_refining(), the rest stay
/// as they are, as the settled ones do. Giving the best starts slices worth refining instead, and
/// the others none, let refines run past auto's deadline (fft2d on 400 scattered nodes with 4 per
/// node at 215 ms of 200, and one instance over 205 ms in each of two runs of the training set,
/// against none in two).
std::vector<Candidate> refine_all(std::vector<Candidate> starts, const graph::CommGraph& graph,
                                  const topology::Allocation& alloc, const MapOptions& options,
                                  const Deadline& deadline, double evaluation_ms, long long attempts) {
  const auto unsettled =
      std::stable_partition(starts.begin(), starts.end(), [](const Candidate& c) { return !c.settled; });
  std::vector<Candidate> settled(std::make_move_iterator(unsettled), std::make_move_iterator(starts.end()));
  starts.erase(unsettled, starts.end());
  std::stable_sort(starts.begin(), starts.end(), score_less);
  const std::size_t threads = static_cast<std::size_t>(std::max(1, options.threads));
  std::vector<Candidate> out(starts.size());
  const double explore_ms = kExploreShare * deadline.remaining_ms();
  const Deadline explore(explore_ms);
  for (std::size_t first = 0; first < starts.size(); first += threads) {
    const std::size_t last = std::min(starts.size(), first + threads);
    const double waves_left = std::ceil(static_cast<double>(starts.size() - first) / static_cast<double>(threads));
    const double ms = attempts > 0 ? kUnboundedMs : explore.remaining_ms() / waves_left;
    if (attempts == 0 && !worth_refining(ms, evaluation_ms)) {
      std::move(starts.begin() + first, starts.end(), out.begin() + first);
      break;
    }
    // Each refine gets what is left of the wave's slice when it starts: if the system refused a
    // thread, the wave's refines run one after another and must not take a slice each.
    const Deadline slice(ms);
    detail::parallel_for(last - first, static_cast<int>(last - first), [&](std::size_t k, int) {
      const double left = attempts > 0 ? kUnboundedMs : slice.remaining_ms();
      out[first + k] = refined(starts[first + k], graph, alloc, options, left, attempts, evaluation_ms);
    });
  }
  std::move(settled.begin(), settled.end(), std::back_inserter(out));
  return out;
}

/// The best starts, as many as there are threads (one with `attempts=N`, so that the result does not
/// depend on the threads), continue with the rest of the search time, each on its own thread; the
/// results that differ from their starts join `finished`. Refine never returns anything worse than
/// its input. Continuing the runner-up too gives the hedge below a second refined candidate when it
/// refuses the best.
void continue_best(std::vector<Candidate>& finished, const graph::CommGraph& graph, const topology::Allocation& alloc,
                   const MapOptions& options, const Deadline& search, double evaluation_ms, long long attempts,
                   bool timed) {
  const std::size_t count =
      std::min(finished.size(), timed ? static_cast<std::size_t>(std::max(1, options.threads)) : std::size_t{1});
  std::vector<std::optional<Candidate>> longer(count);
  detail::parallel_for(count, static_cast<int>(count), [&](std::size_t k, int) {
    const Candidate& start = finished[k];
    // The time left when this one starts, not when the loop did: when the system refuses a thread,
    // the searches run one after another.
    const double ms = timed ? search.remaining_ms() : kUnboundedMs;
    Candidate c = refined(start, graph, alloc, options, ms, attempts, evaluation_ms);
    if (start.score < c.score || c.score < start.score) longer[k] = std::move(c);
  });
  for (std::optional<Candidate>& c : longer)
    if (c) finished.push_back(std::move(*c));
}

/// Anneals the best starts, as many as there are threads, each on its own, for detail::annealing_ms();
/// the results that beat their start join `finished`. Refine stops at the first placement no single
/// swap improves, and on small graphs that took auto 40 to 150 ms of its 200 (stencil2d on
/// torus:4x4x4: emahd's 1.5 times the best MCL found, refined or not). Only a timed auto anneals:
/// with `attempts=N` the result must not depend on the clock.
void anneal_rest(std::vector<Candidate>& finished, const graph::CommGraph& graph, const topology::Allocation& alloc,
                 const MapOptions& options, const Deadline& search, double evaluation_ms, double spent_ms) {
  const Deadline annealing(detail::annealing_ms(search.remaining_ms(), spent_ms, evaluation_ms,
                                                options.time_budget_ms, !options.phases.empty()));
  if (annealing.remaining_ms() <= 0) return;
  const std::size_t count = std::min(finished.size(), static_cast<std::size_t>(std::max(1, options.threads)));
  std::vector<std::optional<Candidate>> annealed(count);
  detail::parallel_for(count, static_cast<int>(count), [&](std::size_t k, int) {
    const Candidate& start = finished[k];
    MapOptions anneal_options = search_options(options, start, annealing.remaining_ms(), "");
    anneal_options.seed = options.seed + k;
    if (anneal_options.time_budget_ms <= 0) return;
    detail::AnnealReport report;
    Mapping m = detail::anneal_mapping(graph, alloc, anneal_options, report);
    if (m == start.mapping) return;
    // Anneal has just scored its result to check it, as refine does (refined()).
    if (*report.score < start.score) annealed[k] = Candidate{start.name + "+anneal", std::move(m), *report.score, {}};
  });
  for (std::optional<Candidate>& c : annealed)
    if (c) finished.push_back(std::move(*c));
}

/// Best score first; ties go to the launcher's order, then to the caller's mapping, then to the
/// member listed first.
void sort_by_preference(std::vector<Candidate>& candidates, std::span<const detail::PortfolioMember> members) {
  const auto rank_of = [&](const Candidate& c) {
    if (c.name.rfind("identity", 0) == 0) return std::size_t{0};
    for (std::size_t k = 0; k < members.size(); ++k)
      if (c.name.rfind(members[k].name, 0) == 0) return k + 2;
    return std::size_t{1};
  };
  std::stable_sort(candidates.begin(), candidates.end(), [&](const Candidate& a, const Candidate& b) {
    if (a.score < b.score || b.score < a.score) return a.score < b.score;
    return rank_of(a) < rank_of(b);
  });
}

std::string describe(const std::vector<Candidate>& all, const DorHedge& hedge, Objective objective) {
  std::ostringstream text;
  text << to_string(objective) << " of each start after refine:";
  for (const Candidate& c : all) text << (&c == &all.front() ? " " : ", ") << c.name << ' ' << c.score.objective;
  return text.str() + hedge.refusals();
}

}  // namespace

// Every member's start is scored, then refined best first within the budget, and with time left the
// best are annealed; the lowest score (objective, then hop-bytes) that the hedge lets through wins,
// the launcher's order unless the winner's objective is lower. With `auto:attempts=N` each refine
// runs N swap attempts, nothing anneals, and the result does not depend on the clock or on
// options.threads.
Mapping detail::map_portfolio(const graph::CommGraph& graph, const topology::Allocation& alloc,
                              const MapOptions& options, std::span<const PortfolioMember> members) {
  const long long attempts = attempts_parameter(options);
  const bool timed = attempts == 0;
  const Deadline budget_end(options.time_budget_ms);
  const double deadline_ms = options.time_budget_ms * (1 - kAfterDeadlineShare);
  const Deadline deadline(deadline_ms);
  const TaskGridMemo task_grid(graph);
  const SymmetrizedMemo symmetrized_memo(graph);
  DorHedge hedge(graph, alloc, options);
  const detail::ObjectiveScorer score(graph, alloc, options);
  std::optional<std::pair<Candidate, double>> scored;
  std::optional<double> hedge_ms = 0;
  std::atomic<bool> unscored{false};
  detail::parallel_for(timed && hedge.active() ? 2 : 1, options.threads, [&](std::size_t k, int) {
    if (k == 0) scored = scored_launcher_order(graph.num_tasks(), score, deadline, timed), unscored = !scored;
    if (k == 1) hedge_ms = hedge.measure_launcher(deadline, unscored);
  });
  if (!scored || !hedge_ms) {
    // Nothing can be shown better than the launcher's order without its score and static load.
    if (options.choice) {
      const double before = scored ? scored->first.score.objective : std::nan("");
      options.choice->chosen = "identity";
      options.choice->detail =
          "the budget ran out while the launcher's order was being measured (a measurement past half the "
          "budget leaves no time for a rival's)";
      options.choice->objectives = MeasuredObjectives{before, before};
    }
    return identity_mapping(graph.num_tasks());
  }
  const auto& [launcher, launcher_ms] = *scored;
  // Building and search leave the time to check the winner under the static routing.
  const Deadline search(deadline.remaining_ms() - detail::hedge_reserve_ms(*hedge_ms, options.time_budget_ms));
  std::vector<Candidate> starts =
      build_starts(launcher, launcher_ms, graph, alloc, options, members, score, search, timed);
  std::vector<double> scorings_ms;
  for (const Candidate& c : starts)
    if (c.scoring_ms > 0) scorings_ms.push_back(c.scoring_ms);
  const double evaluation_ms = detail::typical_scoring_ms(std::move(scorings_ms), launcher_ms);
  std::vector<Candidate> finished =
      refine_all(std::move(starts), graph, alloc, options, search, evaluation_ms, attempts);
  sort_by_preference(finished, members);
  if (!timed || worth_refining(search.remaining_ms(), evaluation_ms))
    continue_best(finished, graph, alloc, options, search, evaluation_ms, attempts, timed);
  sort_by_preference(finished, members);
  if (timed) {
    anneal_rest(finished, graph, alloc, options, search, evaluation_ms, deadline_ms - deadline.remaining_ms());
    sort_by_preference(finished, members);
  }
  const std::optional<std::size_t> kept = hedge.first_passing(
      finished, launcher.score, timed ? &deadline : nullptr, timed ? &budget_end : nullptr, options.threads);
  const Candidate& winner = kept ? finished[*kept] : launcher;
  if (options.choice) {
    options.choice->chosen = winner.name;
    options.choice->detail = describe(finished, hedge, options.objective);
    options.choice->dor_loads = hedge.loads_of(winner);
    options.choice->objectives = MeasuredObjectives{launcher.score.objective, winner.score.objective};
  }
  return winner.mapping;
}

std::optional<std::size_t> detail::first_kept(std::span<const Score> ranked, const Score& launcher,
                                              const std::function<bool(std::size_t)>& refuses) {
  for (std::size_t k = 0; k < ranked.size() && lowers(ranked[k].objective, launcher.objective); ++k)
    if (!refuses(k)) return k;
  return std::nullopt;
}

double detail::annealing_ms(double search_left_ms, double spent_ms, double evaluation_ms, double budget_ms,
                            bool phased) {
  const double ms = phased ? search_left_ms : std::min(search_left_ms, evaluation_ms + kAnnealRatio * spent_ms);
  return ms < kAnnealMinShare * budget_ms + evaluation_ms ? 0 : ms;
}

double detail::typical_scoring_ms(std::vector<double> scorings_ms, double launcher_ms) {
  if (scorings_ms.empty()) return launcher_ms;
  const auto middle = scorings_ms.begin() + static_cast<std::ptrdiff_t>(scorings_ms.size() / 2);
  std::nth_element(scorings_ms.begin(), middle, scorings_ms.end());
  return *middle;
}

double detail::hedge_reserve_ms(double routing_ms, double budget_ms) {
  return std::max(routing_ms, std::min(kCheapHedgeRoutings * routing_ms, kCheapHedgeShare * budget_ms));
}

std::vector<std::size_t> detail::picks_to_route_ahead(std::span<const Score> ranked, std::span<const std::string> names,
                                                      const Score& launcher,
                                                      const std::function<bool(std::size_t)>& needs_routing,
                                                      int threads) {
  assert(names.size() == ranked.size());
  std::vector<std::size_t> picks;
  std::vector<std::string_view> members;
  for (std::size_t k = 0; k < ranked.size() && lowers(ranked[k].objective, launcher.objective) &&
                          picks.size() < static_cast<std::size_t>(std::max(threads, 0));
       ++k) {
    const std::string_view member = std::string_view(names[k]).substr(0, names[k].find('+'));
    if (!needs_routing(k) || std::find(members.begin(), members.end(), member) != members.end()) continue;
    picks.push_back(k);
    members.push_back(member);
  }
  return picks;
}

std::span<const detail::PortfolioMember> detail::core_members() { return kCoreMembers; }

Mapping map_auto(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  return detail::map_portfolio(graph, alloc, options, kCoreMembers);
}

}  // namespace rankmap::mapping
