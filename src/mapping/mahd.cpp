// The mahd mapper: minimum average hop distance greedy, from the busiest task on the most central node.
#include <rankmap/mapping/mapping.hpp>

#include "mahd_problem.hpp"

namespace rankmap::mapping {

// See GreedyPlacer for the search and mahd_problem.hpp for the parameter; docs/algorithms.md
// gives the complexity.
Mapping map_mahd(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  const detail::MahdParameters params = detail::parse_mahd_parameters(options, "mahd", false);
  const detail::MahdProblem problem(graph, alloc, params.concentrate, options.seed);
  return problem.mapping(problem.placer().place());
}

}  // namespace rankmap::mapping
