// The do-no-harm test: enough gain under the objective, and no loss under the other routing.
#include <rankmap/mapping/acceptance.hpp>

#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/topology/routing.hpp>

#include <cstdio>

namespace rankmap::mapping {

std::string refusal_of(const AcceptanceTest& test, const graph::CommGraph& graph, const topology::Allocation& alloc,
                       std::span<const SlotId> candidate, std::span<const SlotId> launcher) {
  if (!(test.after < test.before * (1 - test.min_gain))) return "gain below RANKMAP_MIN_GAIN";
  if (!test.check_dor) return "";
  topology::RoutingSpec dor;
  dor.kind = topology::RoutingKind::dor;
  const auto model = topology::make_routing_model(alloc.grid(), dor);
  const double dor_before = metrics::max_channel_load(graph, alloc, launcher, *model);
  const double dor_after = metrics::max_channel_load(graph, alloc, candidate, *model);
  // A relative margin, so that sums taken in another order do not count as a rise.
  if (!(dor_after > dor_before * (1 + 1e-9))) return "";
  char text[160];
  std::snprintf(text, sizeof text, "raises the MCL under dimension-ordered routing (%.4g -> %.4g; no routing named)",
                dor_before, dor_after);
  return text;
}

}  // namespace rankmap::mapping
