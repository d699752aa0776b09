// The gge mapper: greedy graph embedding, each task next to its most recently placed neighbour.
#include <rankmap/mapping/mapping.hpp>

#include "greedy_embedding.hpp"
#include "slot_layout.hpp"

namespace rankmap::mapping {

// Tasks are taken breadth-first from the busiest one (heaviest neighbours first) and each goes to
// the free slot nearest to the node of its neighbour placed last; the first task goes to the
// most central node, each further component next to the last placed task. When the time budget
// runs out, the tasks not yet placed keep the launcher's order of the free slots.
Mapping map_gge(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  const Deadline deadline(options.time_budget_ms);
  if (!options.parameter.empty()) throw InputError("gge: takes no parameter, not '" + options.parameter + "'");
  const graph::CommGraph sym = graph.symmetrized();
  detail::PlacementProblem problem;
  problem.graph = &sym;
  problem.demand.assign(static_cast<std::size_t>(graph.num_tasks()), 1);
  problem.capacity = detail::node_slot_counts(alloc);
  const detail::GreedyPlacer placer(alloc, std::move(problem), detail::NextItem::discovery,
                                    detail::Target::last_placed_neighbour);
  return detail::slots_from_nodes(alloc, placer.place(-1, detail::GreedyVariant::by_id, &deadline).node_of_item);
}

}  // namespace rankmap::mapping
