// The mahd mapper: minimum average hop distance greedy, from the busiest task on the most central node.
#include <rankmap/mapping/mapping.hpp>

#include "mahd_problem.hpp"
#include "objective_score.hpp"

namespace rankmap::mapping {

// See GreedyPlacer for the search and mahd_problem.hpp for the parameter; docs/algorithms.md
// gives the complexity. Both greedy variants run (see GreedyVariant), and the better mapping by
// the objective is kept, by_id's on a tie. Neither wins everywhere: by_id embeds a periodic 3D
// stencil on a whole torus exactly (1,024 tasks on torus:8x8x8, 2 per node), where from_centre
// gives 2.3 times the hop-bytes; on the quality table's mesh family, mahd+refine / scotch
// hop-bytes was 1.12 with by_id alone and 1.07 with the better of both.
Mapping map_mahd(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  const detail::MahdParameters params = detail::parse_mahd_parameters(options, "mahd", false);
  const detail::MahdProblem problem(graph, alloc, params.concentrate, options.seed);
  const detail::ObjectiveScorer score(graph, alloc, options);
  const Mapping by_id = problem.mapping(problem.placer().place(-1, detail::GreedyVariant::by_id));
  const Mapping from_centre = problem.mapping(problem.placer().place(-1, detail::GreedyVariant::from_centre));
  return score(from_centre) < score(by_id) ? from_centre : by_id;
}

}  // namespace rankmap::mapping
