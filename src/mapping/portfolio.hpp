// The portfolio behind `auto`, open to members that only the offline library has.
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include "objective_score.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::mapping::detail {

/// The networks a member of the portfolio runs on.
enum class MemberNetworks {
  all,    ///< every network
  grids,  ///< tori and meshes: the member needs coordinates
  trees,  ///< fat-trees and dragonflies: the member needs switch levels between a node and the whole network
};

/// One start of the portfolio.
struct PortfolioMember {
  std::string_view name;       ///< how the winner is reported, e.g. `rahtm:milp=off`
  MapFunction map;
  std::string_view parameter;  ///< passed as MapOptions::parameter
  double budget_share = 0;     ///< of the whole budget, for a member that searches (0: it ignores the budget)
  /// A member that ignores the budget and grows slow runs only with at least this budget and at most
  /// this many tasks (0: no limit).
  double min_budget_ms = 0;
  TaskId max_tasks = 0;
  MemberNetworks networks = MemberNetworks::all;
  /// Built before the others when the allocation is every node of the network and the graph has a task grid.
  bool first_on_whole_machine = false;
};

/// Which of the finished starts, ranked best first, auto keeps: the first whose objective is below
/// the launcher's order's, past rounding (`lowers`: the same loads summed in another order differ in
/// the last bits), and that `refuses` lets through; none means the launcher's order. Fewer
/// hop-bytes alone rank starts but do not replace the launcher's order. A start for SP with the
/// launcher's order's MCL, one ulp lower by summation order, made it 1.13 times slower in SimGrid
/// (torus:8x8x8; the runtime's 2% rule would have refused it, but `rankmap map` has none).
/// `refuses` may route every flow, so it is asked best first and no further than the launcher's
/// order's objective.
std::optional<std::size_t> first_kept(std::span<const Score> ranked, const Score& launcher,
                                      const std::function<bool(std::size_t)>& refuses);

/// Which of the finished starts, ranked best first (`names` alike), the hedge routes at once on
/// `threads` threads before first_kept() asks about them: at most `threads` of those that first_kept()
/// may reach (below the launcher's order's objective) and that `needs_routing`, the best first and
/// then the best of each other member (a start's name up to its first '+'). A refined start and its
/// start share most of their placement and were refused together (emahd and emahd+refine for bruck
/// on 1,000 scattered nodes).
std::vector<std::size_t> picks_to_route_ahead(std::span<const Score> ranked, std::span<const std::string> names,
                                              const Score& launcher,
                                              const std::function<bool(std::size_t)>& needs_routing, int threads);

/// What an evaluation costs once the starts are built: the median time their scorings took
/// (`scorings_ms`), or `launcher_ms` when none was measured. The launcher's order is scored first,
/// while the routing's patterns are built and the memory is fresh, and took 3 to 9 times as long as
/// the scorings after it (7.4 ms against 0.6 to 4.8 for stencil27 on 125 scattered nodes). Judged
/// by it, slices of refine too short to do anything were begun, and long ones too short to descend
/// on hop-bytes first. On the training set at 200 ms, six alternated runs each: within 5% of the
/// best single algorithm on 144.7 of 170 against 142.2, fragmented 0.4513 against 0.4555
/// (bench/results/2026-11-30-s50/warm).
double typical_scoring_ms(std::vector<double> scorings_ms, double launcher_ms);

/// The time a timed auto's search leaves for the hedge under the network's static routing, one
/// routing of which took `routing_ms`: at least one routing, since first_kept()'s first candidate
/// is routed whatever the time, and more, up to kCheapHedgeRoutings, as far as they fit in
/// kCheapHedgeShare of `budget_ms`, since the candidates after a refused one are routed only
/// within the deadline (docs/algorithms.md, "auto", the hedge).
double hedge_reserve_ms(double routing_ms, double budget_ms);

/// How long a timed auto anneals its best starts: at most as long as it took so far (`spent_ms`) plus
/// one evaluation to score the result, within the time the search has left; 0 (no annealing) when
/// that is less than a tenth of the budget plus an evaluation. So a run anneals only once it has
/// spent about a tenth of its budget: a small graph that converged in 0.3 s of `rankmap map`'s
/// 10 s is returned then, not after 10 s. With phases (`phased`) it anneals with all the time the
/// search has left: refine's single swaps rarely lower a sum of the phases' maxima (on BT's and SP's
/// recorded phases on torus:8x8x8 under dimension-ordered routing, no start refined below the
/// launcher's order at 10 s), while annealing needs minutes there (BT, emahd+anneal: 0.94 of the
/// launcher's order's phased MCL after 30 s, 0.85 after 120 s, 0.75 after 300 s).
double annealing_ms(double search_left_ms, double spent_ms, double evaluation_ms, double budget_ms,
                    bool phased);

/// The members of the core library's auto, in the order they are built.
std::span<const PortfolioMember> core_members();

/// auto with `members` (besides the launcher's order and the caller's mapping, which always take
/// part): each that runs on the allocation's network is built in order, and all are refined alike.
/// The offline library adds its own members to core_members(); bench/network_quality tries others.
Mapping map_portfolio(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options,
                      std::span<const PortfolioMember> members);

}  // namespace rankmap::mapping::detail
