// Minimal adaptive routing: the flow is split evenly over all minimal paths.
#include "routing_models.hpp"

namespace rankmap::topology::detail {

// The share of an edge is (paths from the source to it) x (paths from it to a destination)
// over all paths, which counts every minimal path once, ties included.
std::vector<RouteStep> AdaptiveRouting::build_pattern(const OffsetKey& key) const {
  const MinimalPathBox box(grid(), key);
  const auto& order = box.points_in_order();
  std::vector<double> from_source(box.num_points(), 0.0), to_dest(box.num_points(), 0.0);
  from_source[order.front()] = 1.0;
  for (std::uint32_t p : order)
    box.for_each_step(p, [&](std::uint32_t q, int, Direction) { from_source[q] += from_source[p]; });
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const std::uint32_t p = *it;
    if (box.is_destination(p)) to_dest[p] = 1.0;
    else box.for_each_step(p, [&](std::uint32_t q, int, Direction) { to_dest[p] += to_dest[q]; });
  }
  const double total = to_dest[order.front()];
  std::vector<RouteStep> steps;
  steps.reserve(box.num_steps());
  for (std::uint32_t p : order)
    box.for_each_step(p, [&](std::uint32_t q, int dim, Direction dir) {
      steps.push_back(box.make_step(p, dim, dir, from_source[p] * to_dest[q] / total));
    });
  return steps;
}

}  // namespace rankmap::topology::detail
