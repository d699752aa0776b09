// The rcm mapper: reverse Cuthill-McKee order of the tasks laid along the Hilbert order of the slots.
#include <rankmap/mapping/hilbert.hpp>
#include <rankmap/mapping/mapping.hpp>

#include "slot_layout.hpp"

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/cuthill_mckee_ordering.hpp>

#include <utility>

namespace rankmap::mapping {

// Boost.Graph's Cuthill-McKee on the symmetrized graph (one pseudo-peripheral start per
// connected component, neighbours by increasing degree), reversed, so that a band of tasks that
// talk to each other lands on a stretch of the Hilbert curve. O(E log deg + P log P).
Mapping map_rcm(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  if (!options.parameter.empty()) throw InputError("rcm: takes no parameter, not '" + options.parameter + "'");
  topology::require_grid(alloc.network(), "rcm");
  const graph::CommGraph sym = graph.symmetrized();
  std::vector<std::pair<TaskId, TaskId>> edges;
  edges.reserve(static_cast<std::size_t>(sym.num_edges()));
  for (TaskId t = 0; t < sym.num_tasks(); ++t)
    for (TaskId x : sym.out_neighbors(t)) edges.emplace_back(t, x);
  using BoostGraph = boost::compressed_sparse_row_graph<boost::directedS>;
  const BoostGraph g(boost::edges_are_sorted, edges.begin(), edges.end(), static_cast<std::size_t>(sym.num_tasks()));
  std::vector<BoostGraph::vertex_descriptor> order(static_cast<std::size_t>(sym.num_tasks()));
  boost::cuthill_mckee_ordering(g, order.rbegin());
  const std::vector<TaskId> task_order(order.begin(), order.end());
  return detail::lay_along(hilbert_slot_order(alloc), task_order);
}

}  // namespace rankmap::mapping
