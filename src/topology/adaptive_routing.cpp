// Minimal adaptive routing: the flow is split evenly over all minimal paths.
#include "routing_models.hpp"

namespace rankmap::topology::detail {

// A path drawn evenly from all minimal paths (ties included) is a walk that leaves each point by
// each step with the fraction of the point's paths that take it; the flow through a point times
// that fraction is the edge's share. Counting paths instead would overflow (see path_fraction).
std::vector<RouteStep> AdaptiveRouting::build_pattern(const OffsetKey& key) const {
  const MinimalPathBox box(grid(), key);
  std::vector<double> through(box.num_points(), 0.0);
  through[box.points_in_order().front()] = 1.0;
  std::vector<RouteStep> steps;
  steps.reserve(box.num_steps());
  for (std::uint32_t p : box.points_in_order()) {
    if (through[p] == 0.0) continue;
    box.for_each_step(p, [&](std::uint32_t q, int dim, Direction dir) {
      const double share = through[p] * box.path_fraction(p, dim);
      // Shares too small for a double (far from the straight line on a long box) carry nothing.
      if (share == 0.0) return;
      through[q] += share;
      steps.push_back(box.make_step(p, dim, dir, share));
    });
  }
  return steps;
}

}  // namespace rankmap::topology::detail
