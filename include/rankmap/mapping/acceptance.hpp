// The do-no-harm test that the runtime and `rankmap place` share: whether a mapping replaces the
// launcher's order.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/topology/allocation.hpp>
#include <rankmap/topology/routing.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace rankmap::mapping {

/// What the launcher's order and the candidate score, and how much must be gained.
struct AcceptanceTest {
  double before = 0;    ///< the objective of the launcher's order
  double after = 0;     ///< the objective of the candidate
  double min_gain = 0;  ///< the relative improvement required (RANKMAP_MIN_GAIN)
  /// Also refuse a candidate that raises the maximum channel load under the network's static
  /// routing: dimension-ordered on a torus or mesh, d-mod-k on a fat-tree, minimal on a dragonfly
  /// (dor_max_channel_load). Set by checks_dor: on a torus or mesh the default objective assumes
  /// adaptive routing, and a mapping that wins under that assumption can lose badly on a machine
  /// that routes statically (SimGrid's torus: BENCHMARKS.md, "Simulated network: the default
  /// mapper"; before fat-trees took d-mod-k as their default, also "Simulated network: fat-trees
  /// and dragonflies").
  bool check_dor = false;
  /// The static-routing loads of the launcher's order and the candidate when already measured
  /// (Choice::dor_loads of auto, whose launcher's order is the identity); refusal_of then routes
  /// neither again. Leave empty unless both were measured on exactly these two mappings' nodes.
  std::optional<DorLoads> known_dor;
  /// The phases the objective was summed over (MapOptions::phases), if any: the static routing's
  /// load is then summed over them too. A sweep's aggregate graph can load the static routing's
  /// busiest channel less while every sweep direction loads its own more (BT on SimGrid's torus).
  std::span<const graph::CommGraph> phases;
  /// The routing the user named, when hedge phases bring the hedge under it (hedge_routing_model);
  /// null for the network's static routing.
  std::shared_ptr<const topology::RoutingModel> routing;
};

/// Whether the hedge applies: the objective is MCL, and either the user named no routing and the
/// network's default routing is not already its static one (it is on fat-trees and dragonflies), so
/// the static routing is checked too, or there are hedge phases (MapOptions::hedge_phases) to sum
/// the load over, named routing or not. The one statement of the condition, for auto, the
/// runtime's decision and `rankmap place`.
bool checks_dor(const MapOptions& options, const topology::Network& network);

/// The routing the hedge measures under: the one the user named (only hedge phases bring the hedge
/// then), else the network's static routing (static_routing_model).
std::shared_ptr<const topology::RoutingModel> hedge_routing_model(const MapOptions& options,
                                                                  const topology::Network& network);

/// The phases the hedge sums over: the objective's phases, else the hedge's own (MapOptions).
std::span<const graph::CommGraph> hedged_phases(const MapOptions& options);

/// The test that mappings made with `options` for `network` must pass: the gain, and the hedge
/// where checks_dor() applies, summed over hedged_phases(), under the named routing when there is
/// one and else the network's static routing (null `routing`, whose refusal says no routing was
/// named). AcceptanceTest::known_dor is left to the caller.
AcceptanceTest acceptance_test(const MapOptions& options, const topology::Network& network, double before,
                               double after, double min_gain);

/// The maximum channel load under the network's static routing: dimension-ordered (dimension 0
/// first) on a torus or mesh, SimGrid's d-mod-k on a fat-tree, SimGrid's minimal on a dragonfly;
/// the second routing that the hedge checks when the user named none. (The name is older than the
/// fat-trees and dragonflies.) With `phases`, the sum of their loads, as the objective sums them
/// (metrics::phased_max_channel_load).
double dor_max_channel_load(const graph::CommGraph& graph, const topology::Allocation& alloc,
                            std::span<const SlotId> slot_of, std::span<const graph::CommGraph> phases = {});
/// The same, or nothing when should_stop() returns true first. It is asked once per node while the
/// flows are gathered per node pair, then about every few hundred flows. Under `routing` instead
/// when given (hedge_routing_model).
std::optional<double> dor_max_channel_load(const graph::CommGraph& graph, const topology::Allocation& alloc,
                                           std::span<const SlotId> slot_of, std::span<const graph::CommGraph> phases,
                                           const std::function<bool()>& should_stop,
                                           const topology::RoutingModel* routing = nullptr);

/// The routing model dor_max_channel_load() routes with, shared: models are shared only while
/// someone holds one, so a caller that routes several mappings holds it meanwhile, and each
/// routing does not build the model and its route patterns again.
std::shared_ptr<const topology::RoutingModel> static_routing_model(const topology::Network& network);

/// Whether `load` rises above `reference_load`, past the rounding of sums taken in another order.
inline bool raises_load(double load, double reference_load) { return load > reference_load * (1 + 1e-9); }

/// Whether `value` falls below `reference`, past the rounding of sums taken in another order.
inline bool lowers(double value, double reference) { return value < reference * (1 - 1e-9); }

/// Empty when `candidate` replaces `launcher`; otherwise why not, in words for a report line.
/// `candidate` and `launcher` are slot_of arrays over `alloc`'s slots.
std::string refusal_of(const AcceptanceTest& test, const graph::CommGraph& graph, const topology::Allocation& alloc,
                       std::span<const SlotId> candidate, std::span<const SlotId> launcher);

}  // namespace rankmap::mapping
