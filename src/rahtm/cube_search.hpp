// A fast heuristic for cube problems: iterated swap local search, the MILP's starting incumbent.
#pragma once

#include "cube_problem.hpp"

#include <rankmap/mapping/mapping.hpp>

#include <cstdint>

namespace rankmap::rahtm {

struct CubeSearchOptions {
  int kicks = 200;         ///< random perturbations of the best placement, each followed by descent
  std::uint64_t seed = 1;  ///< the search is deterministic for a given seed
  const mapping::Deadline* deadline = nullptr;  ///< optional: no kick starts once it has passed
};

/// Improves `start` (vertex_of per cluster) by best-improvement swaps of the contents of two
/// vertices, ranked by (MCL, sum of squared loads), with random kicks to leave local optima.
/// Never returns a placement worse than `start`.
CubePlacement search_cube(const CubeProblem& problem, std::span<const int> start, const CubeSearchOptions& options);

/// The placement that puts cluster a on the a-th vertex of its size, in vertex order.
std::vector<int> ordered_placement(const CubeProblem& problem);

}  // namespace rankmap::rahtm
