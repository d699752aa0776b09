// Hop-bytes of a mapping.
#include <rankmap/metrics/hop_bytes.hpp>

#include <vector>

namespace rankmap::metrics {

namespace {

// On a grid each allocated node's coordinates are found once: dividing node ids into coordinates
// for every edge took most of the time of measuring hop-bytes, which auto does for every candidate.
double grid_hop_bytes(const graph::CommGraph& graph, const topology::Allocation& alloc, const topology::Grid& grid,
                      std::span<const SlotId> slot_of) {
  std::vector<topology::Coords> coords(static_cast<std::size_t>(alloc.num_nodes()));
  for (int i = 0; i < alloc.num_nodes(); ++i) coords[i] = grid.coords_of(alloc.node(i));
  std::vector<int> node_of_task(static_cast<std::size_t>(graph.num_tasks()));
  for (TaskId t = 0; t < graph.num_tasks(); ++t) node_of_task[t] = alloc.node_index_of_slot(slot_of[t]);
  double total = 0;
  for (TaskId t = 0; t < graph.num_tasks(); ++t) {
    const topology::Coords& a = coords[node_of_task[t]];
    const auto targets = graph.out_neighbors(t);
    const auto weights = graph.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k) total += weights[k] * grid.hops(a, coords[node_of_task[targets[k]]]);
  }
  return total;
}

}  // namespace

double hop_bytes(const graph::CommGraph& graph, const topology::Allocation& alloc, std::span<const SlotId> slot_of) {
  const topology::Network& network = alloc.network();
  if (const topology::Grid* grid = network.grid_if()) return grid_hop_bytes(graph, alloc, *grid, slot_of);
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
