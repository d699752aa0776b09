// The do-no-harm test: enough gain under the objective, and no loss under the network's static routing.
#include <rankmap/mapping/acceptance.hpp>

#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/topology/routing.hpp>

#include <cstdio>

namespace rankmap::mapping {

namespace {

const char* static_routing_name(const topology::Network& network) {
  switch (network.kind()) {
    case topology::NetworkKind::grid: return "dimension-ordered";
    case topology::NetworkKind::fat_tree: return "d-mod-k";
    case topology::NetworkKind::dragonfly: return "minimal";
  }
  return "static";
}

topology::RoutingKind static_routing_of(const topology::Network& network) {
  switch (network.kind()) {
    case topology::NetworkKind::grid: return topology::RoutingKind::dor;
    case topology::NetworkKind::fat_tree: return topology::RoutingKind::dmodk;
    case topology::NetworkKind::dragonfly: return topology::RoutingKind::minimal;
  }
  return topology::RoutingKind::dor;
}

}  // namespace

bool checks_dor(const MapOptions& options, const topology::Network& network) {
  if (options.objective != Objective::mcl) return false;
  if (options.phases.empty() && !options.hedge_phases.empty()) return true;
  return !options.routing_stated && options.routing.on(network).kind != static_routing_of(network);
}

std::shared_ptr<const topology::RoutingModel> hedge_routing_model(const MapOptions& options,
                                                                  const topology::Network& network) {
  return options.routing_stated ? topology::shared_routing_model(network, options.routing)
                                : static_routing_model(network);
}

std::span<const graph::CommGraph> hedged_phases(const MapOptions& options) {
  return options.phases.empty() ? options.hedge_phases : options.phases;
}

AcceptanceTest acceptance_test(const MapOptions& options, const topology::Network& network, double before,
                               double after, double min_gain) {
  const bool check_dor = checks_dor(options, network);
  return {before,
          after,
          min_gain,
          check_dor,
          std::nullopt,
          hedged_phases(options),
          check_dor && options.routing_stated ? hedge_routing_model(options, network) : nullptr};
}

double dor_max_channel_load(const graph::CommGraph& graph, const topology::Allocation& alloc,
                            std::span<const SlotId> slot_of, std::span<const graph::CommGraph> phases) {
  return *dor_max_channel_load(graph, alloc, slot_of, phases, [] { return false; });
}

std::shared_ptr<const topology::RoutingModel> static_routing_model(const topology::Network& network) {
  topology::RoutingSpec fixed;
  fixed.kind = static_routing_of(network);
  return topology::shared_routing_model(network, fixed);
}

std::optional<double> dor_max_channel_load(const graph::CommGraph& graph, const topology::Allocation& alloc,
                                           std::span<const SlotId> slot_of, std::span<const graph::CommGraph> phases,
                                           const std::function<bool()>& should_stop,
                                           const topology::RoutingModel* routing) {
  const auto phased = metrics::phases_or_whole(graph, phases);
  if (routing) return metrics::phased_max_channel_load(phased, alloc, slot_of, *routing, should_stop);
  return metrics::phased_max_channel_load(phased, alloc, slot_of, *static_routing_model(alloc.network()), should_stop);
}

std::string refusal_of(const AcceptanceTest& test, const graph::CommGraph& graph, const topology::Allocation& alloc,
                       std::span<const SlotId> candidate, std::span<const SlotId> launcher) {
  if (!(test.after < test.before * (1 - test.min_gain))) return "gain below RANKMAP_MIN_GAIN";
  if (!test.check_dor) return "";
  const auto load = [&](std::span<const SlotId> slot_of) {
    return *dor_max_channel_load(graph, alloc, slot_of, test.phases, [] { return false; }, test.routing.get());
  };
  const double dor_before = test.known_dor ? test.known_dor->launcher : load(launcher);
  const double dor_after = test.known_dor ? test.known_dor->chosen : load(candidate);
  if (!raises_load(dor_after, dor_before)) return "";
  char text[200];
  if (test.routing)
    std::snprintf(text, sizeof text, "raises the MCL under the named routing (%s)%s (%.4g -> %.4g)",
                  test.routing->name().c_str(), test.phases.empty() ? "" : ", summed over the phases", dor_before,
                  dor_after);
  else
    std::snprintf(text, sizeof text, "raises the MCL under %s routing%s (%.4g -> %.4g; no routing named)",
                  static_routing_name(alloc.network()), test.phases.empty() ? "" : ", summed over the phases",
                  dor_before, dor_after);
  return text;
}

}  // namespace rankmap::mapping
