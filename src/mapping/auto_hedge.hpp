// auto's hedge: the winner may not raise the MCL under the network's static routing above the
// launcher's order's.
#pragma once

#include <rankmap/mapping/mapping.hpp>
#include <rankmap/topology/routing.hpp>

#include "auto_candidate.hpp"

#include <atomic>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rankmap::mapping::detail {

/// Without a named routing, MCL assumes adaptive routing; a candidate that raises the MCL under the
/// network's static routing (dimension-ordered, d-mod-k or minimal: dor_max_channel_load) above the
/// launcher's order's is refused, so that auto never trades a gain under the assumption for a loss
/// on a machine that routes statically (SimGrid's fat-tree: BT 1.44 times slower before). The
/// launcher's order itself always passes. The loads it measures go to Choice::dor_loads, so that the
/// runtime's do-no-harm test does not route the same two mappings again. With phases the loads are
/// summed over them, as the objective is: BT's aggregate graph hid that every sweep direction of
/// the candidate loaded its busiest channel more (SimGrid's torus:8x8x8, 1.02). Hedge phases
/// (MapOptions::hedge_phases) bring the hedge also where the routing is named, under that routing:
/// the whole graph is the objective then, and a mapping it prefers can load every phase more.
///
/// A timed auto routes the launcher's order up front, beside its scoring when there is a second
/// thread, and keeps as much time for checking the winner (more when routings are cheap:
/// detail::hedge_reserve_ms()). When both were routed at the end, with
/// two evaluations kept for them from the search alone, the building ran up to the deadline and
/// auto took up to 233 ms of its 200 on the training set (fft2d on 400 scattered nodes, 4 per node);
/// keeping two evaluations from the building too cost quality (fragmented instances 0.498 and 0.504
/// of the launcher's order, against 0.493 and 0.491), since one static routing took 0.14 to 1.1
/// evaluations on the 15 instances where it took longest. Without a clock (`attempts=N`) the
/// launcher's order is routed only when a candidate needs checking: nothing is kept for it then,
/// and an auto that keeps the launcher's order need not pay for it.
class DorHedge {
 public:
  DorHedge(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options);
  bool active() const { return active_; }
  /// Routes the launcher's order (when active) within `deadline` and returns how long that took, in
  /// ms: about what checking one candidate costs. Nothing when the deadline passed first, or
  /// `abandoned` was set meanwhile (the order's scoring gave up, and nothing can beat it then).
  std::optional<double> measure_launcher(const Deadline& deadline, const std::atomic<bool>& abandoned);
  /// The first of `ranked` (best first) that scores below the launcher's order and passes, if any.
  /// Only as many are routed as it takes to find it: routing every one of them cost more than the
  /// budget at 16,384 tasks. It ends at the launcher's order's objective: when the hedge refused the
  /// launcher's order refined, the next that passed could be worse than the order itself (ring on 125
  /// scattered nodes). The first that needs routing is routed whatever the time, since the time kept
  /// is for it: a refine that checked its result a little late, or a thread scheduled late, would
  /// otherwise cost the whole gain; on `threads` threads so are as many at once (route_ahead), the
  /// others than the first within `budget_end` (none: no limit). The later ones are routed only
  /// within `deadline` (none: no limit): routing the five that it refused for bruck on 1,000
  /// scattered nodes one after another took auto to 219 ms of its 200.
  std::optional<std::size_t> first_passing(std::vector<Candidate>& ranked, const Score& launcher,
                                           const Deadline* deadline, const Deadline* budget_end, int threads);
  /// The launcher's and `winner`'s loads, if they were measured.
  std::optional<DorLoads> loads_of(const Candidate& winner) const;
  /// What first_passing() refused, in words for Choice::detail.
  std::string refusals() const;

 private:
  /// Routes the picks_to_route_ahead() at once: the first whatever the time, the others until
  /// `budget_end` (none: no limit), which only a thread the system refused, so that they ran one
  /// after another, should reach. One stops as soon as an earlier one is known to pass. The time
  /// kept covers at least one routing (detail::hedge_reserve_ms), and the later ones wait for the
  /// deadline, so a refused first candidate used to leave the others unchecked (stencil27 on 2,000
  /// scattered nodes kept the launcher's order, with bisect's start at 0.46 of its MCL). False when
  /// the hedge does not apply, on one thread, or with fewer than two to route.
  bool route_ahead(std::vector<Candidate>& ranked, std::span<const Score> scores, std::span<const std::string> names,
                   const Score& launcher, const Deadline* budget_end, int threads);
  /// Nothing when `deadline` (none: no limit) passes first, or `abandoned` (none: never) is set; once
  /// either has happened, the flows are not even gathered.
  std::optional<double> route(const Mapping& m, const Deadline* deadline,
                              const std::atomic<bool>* abandoned = nullptr) const;
  double launcher_load();

  const graph::CommGraph& graph_;
  const topology::Allocation& alloc_;
  std::span<const graph::CommGraph> phases_;
  bool active_;
  bool named_routing_;  ///< only hedge phases bring the hedge then, under that routing
  std::optional<double> launcher_load_;
  std::vector<std::string> refused_, unchecked_;
  /// The hedge's routing (hedge_routing_model), held so that every routing of the hedge shares one
  /// model and its route patterns.
  std::shared_ptr<const topology::RoutingModel> model_;
};

}  // namespace rankmap::mapping::detail
