// Dimension-ordered routing: one path, dimensions corrected in a fixed order.
#include "routing_models.hpp"

namespace rankmap::topology::detail {

DorRouting::DorRouting(Grid grid, std::vector<int> order) : PatternRouting(std::move(grid)), order_(std::move(order)) {}

std::string DorRouting::name() const {
  std::string s = "dor:";
  for (int d : order_) s += std::to_string(d);
  return s;
}

std::vector<RouteStep> DorRouting::build_pattern(const OffsetKey& key) const {
  std::vector<RouteStep> steps;
  RouteStep step{};
  step.fraction = 1.0;
  step.new_point = 1;  // one path: every step leaves a point of its own
  for (int d : order_) {
    const int off = key.offset[d];
    const int dir = off < 0 ? -1 : 1;
    step.dim = static_cast<std::uint8_t>(d);
    step.dir = static_cast<std::uint8_t>(dir > 0 ? Direction::plus : Direction::minus);
    for (int i = 0; i < std::abs(off); ++i) {
      steps.push_back(step);
      step.rel[d] = static_cast<std::int16_t>(step.rel[d] + dir);
    }
  }
  return steps;
}

}  // namespace rankmap::topology::detail
