// Average (byte-weighted) and maximum dilation of a mapping.
#include <rankmap/metrics/dilation.hpp>

#include <algorithm>

namespace rankmap::metrics {

Dilation dilation(const graph::CommGraph& graph, const topology::Allocation& alloc, std::span<const SlotId> slot_of) {
  const topology::Network& network = alloc.network();
  Dilation result;
  double weighted = 0;
  for (TaskId t = 0; t < graph.num_tasks(); ++t) {
    const NodeId a = alloc.node_of_slot(slot_of[t]);
    const auto targets = graph.out_neighbors(t);
    const auto weights = graph.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const int h = network.hops(a, alloc.node_of_slot(slot_of[targets[k]]));
      weighted += weights[k] * h;
      result.max = std::max(result.max, h);
    }
  }
  if (graph.total_weight() > 0) result.average = weighted / graph.total_weight();
  return result;
}

}  // namespace rankmap::metrics
