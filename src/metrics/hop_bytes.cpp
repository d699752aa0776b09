// Hop-bytes of a mapping.
#include <rankmap/metrics/hop_bytes.hpp>

namespace rankmap::metrics {

double hop_bytes(const graph::CommGraph& graph, const topology::Allocation& alloc, std::span<const SlotId> slot_of) {
  const topology::Network& network = alloc.network();
  double total = 0;
  for (TaskId t = 0; t < graph.num_tasks(); ++t) {
    const NodeId a = alloc.node_of_slot(slot_of[t]);
    const auto targets = graph.out_neighbors(t);
    const auto weights = graph.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k)
      total += weights[k] * network.hops(a, alloc.node_of_slot(slot_of[targets[k]]));
  }
  return total;
}

}  // namespace rankmap::metrics
