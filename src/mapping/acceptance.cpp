// The do-no-harm test: enough gain under the objective, and no loss under the other routing.
#include <rankmap/mapping/acceptance.hpp>

#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/topology/routing.hpp>

#include <cstdio>

namespace rankmap::mapping {

double dor_max_channel_load(const graph::CommGraph& graph, const topology::Allocation& alloc,
                            std::span<const SlotId> slot_of) {
  topology::RoutingSpec dor;
  dor.kind = topology::RoutingKind::dor;
  return metrics::max_channel_load(graph, alloc, slot_of, *topology::make_routing_model(alloc.grid(), dor));
}

std::string refusal_of(const AcceptanceTest& test, const graph::CommGraph& graph, const topology::Allocation& alloc,
                       std::span<const SlotId> candidate, std::span<const SlotId> launcher) {
  if (!(test.after < test.before * (1 - test.min_gain))) return "gain below RANKMAP_MIN_GAIN";
  // Dimension order exists on tori and meshes only; the other networks name their routing in their spec.
  if (!test.check_dor || !alloc.network().is_grid()) return "";
  const double dor_before = test.known_dor ? test.known_dor->launcher : dor_max_channel_load(graph, alloc, launcher);
  const double dor_after = test.known_dor ? test.known_dor->chosen : dor_max_channel_load(graph, alloc, candidate);
  if (!raises_load(dor_after, dor_before)) return "";
  char text[160];
  std::snprintf(text, sizeof text, "raises the MCL under dimension-ordered routing (%.4g -> %.4g; no routing named)",
                dor_before, dor_after);
  return text;
}

}  // namespace rankmap::mapping
