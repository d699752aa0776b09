// Hop-by-hop adaptive routing: at every node the flow splits evenly among productive directions.
#include "routing_models.hpp"

namespace rankmap::topology::detail {

RoutePattern AdaptiveHopRouting::build_pattern(const OffsetKey& key) const {
  const MinimalPathBox box(grid(), key);
  const auto& order = box.points_in_order();
  std::vector<double> mass(box.num_points(), 0.0);
  mass[order.front()] = 1.0;
  RoutePattern steps(grid().ndims());
  steps.reserve(box.num_steps(), box.num_points());
  for (std::uint32_t p : order) {
    if (mass[p] == 0.0) continue;
    int productive = 0;
    box.for_each_step(p, [&](std::uint32_t, int, Direction) { ++productive; });
    if (productive == 0) continue;
    const double share = mass[p] / productive;
    // Along a long row the mass left to turn halves every hop and underflows to zero after ~1075
    // hops; a step with no share is no step (its loss is below the smallest double).
    if (share == 0.0) continue;
    bool first = true;
    box.for_each_step(p, [&](std::uint32_t q, int dim, Direction dir) {
      mass[q] += share;
      box.add_step(steps, p, dim, dir, share, first);
      first = false;
    });
  }
  return steps;
}

}  // namespace rankmap::topology::detail
