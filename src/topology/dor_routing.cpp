// Dimension-ordered routing: one path, dimensions corrected in a fixed order.
#include "routing_models.hpp"

namespace rankmap::topology::detail {

DorRouting::DorRouting(Grid grid, std::vector<int> order) : PatternRouting(std::move(grid)), order_(std::move(order)) {}

std::string DorRouting::name() const {
  std::string s = "dor:";
  for (int d : order_) s += std::to_string(d);
  return s;
}

RoutePattern DorRouting::build_pattern(const OffsetKey& key) const {
  RoutePattern steps(grid().ndims());
  std::array<std::int16_t, kMaxDims> rel{};
  for (int d : order_) {
    const int off = key.offset[d];
    const int dir = off < 0 ? -1 : 1;
    for (int i = 0; i < std::abs(off); ++i) {
      // One path: every step leaves a point of its own.
      steps.add_step(rel.data(), d, dir > 0 ? Direction::plus : Direction::minus, 1.0, true);
      rel[d] = static_cast<std::int16_t>(rel[d] + dir);
    }
  }
  return steps;
}

}  // namespace rankmap::topology::detail
