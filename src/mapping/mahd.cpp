// The mahd mapper: minimum average hop distance greedy, from the busiest task on the most central node.
#include <rankmap/mapping/mapping.hpp>

#include "mahd_problem.hpp"
#include "objective_score.hpp"

#include <chrono>

namespace rankmap::mapping {

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

// See GreedyPlacer for the search and mahd_problem.hpp for the parameter; docs/algorithms.md
// gives the complexity. Both greedy variants run (see GreedyVariant), and the better mapping by
// the objective is kept, by_id's on a tie. Neither wins everywhere: by_id embeds a periodic 3D
// stencil on a whole torus exactly (1,024 tasks on torus:8x8x8, 2 per node), where from_centre
// gives 2.3 times the hop-bytes; on the quality table's mesh family, mahd+refine / scotch
// hop-bytes was 1.12 with by_id alone and 1.07 with the better of both.
//
// Within the time budget: the concentration's partition stops at half of it (kConcentrationShare),
// then by_id runs, and the deadline cuts it short if need be (the tasks it has not placed then keep
// the launcher's order of the free slots). from_centre runs only if the time left covers another
// greedy run as long as by_id's plus the scoring of both, and is dropped if the deadline cuts it;
// so the run ends within the budget plus one objective evaluation.
Mapping map_mahd(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  const Deadline deadline(options.time_budget_ms);
  const detail::MahdParameters params = detail::parse_mahd_parameters(options, "mahd", false);
  const Deadline partition_deadline(detail::kConcentrationShare * options.time_budget_ms);
  const detail::MahdProblem problem(graph, alloc, params.concentrate, options.seed, &partition_deadline);
  auto start = std::chrono::steady_clock::now();
  const detail::Placement by_id = problem.placer().place(-1, detail::GreedyVariant::by_id, &deadline);
  Mapping first = problem.mapping(by_id.node_of_item);
  const double greedy_ms = ms_since(start);
  if (by_id.cut || deadline.remaining_ms() < greedy_ms) return first;
  start = std::chrono::steady_clock::now();
  const detail::ObjectiveScorer score(graph, alloc, options);
  const detail::Score first_score = score(first);
  if (deadline.remaining_ms() < greedy_ms + ms_since(start)) return first;
  const detail::Placement centre = problem.placer().place(-1, detail::GreedyVariant::from_centre, &deadline);
  if (centre.cut) return first;
  Mapping second = problem.mapping(centre.node_of_item);
  return score(second) < first_score ? second : first;
}

}  // namespace rankmap::mapping
