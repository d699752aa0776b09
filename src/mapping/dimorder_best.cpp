// The dimorder-best mapper: every dimension traversal order scored under the routing model.
#include <rankmap/mapping/mapping.hpp>

#include "dimension_order.hpp"
#include "objective_score.hpp"
#include "parameter.hpp"
#include "slot_layout.hpp"

#include <algorithm>
#include <random>
#include <set>

namespace rankmap::mapping {

namespace {

/// 6! = 720: every order of a 5-D grid and T (Blue Gene/Q) is tried.
constexpr long long kDefaultMaxCandidates = 720;

/// The keys whose order matters: dimensions along which the allocation has more than one
/// coordinate, and T when some node has more than one slot. The others are constant and
/// are kept in front, where they change nothing.
void split_keys(const topology::Allocation& alloc, detail::DimensionOrder& varying, detail::DimensionOrder& fixed) {
  const topology::Grid& grid = alloc.grid();
  for (int d = 0; d < grid.ndims(); ++d) {
    const int first = grid.coord(alloc.node(0), d);
    const bool varies = std::any_of(alloc.nodes().begin(), alloc.nodes().end(),
                                    [&](NodeId n) { return grid.coord(n, d) != first; });
    (varies ? varying : fixed).push_back(d);
  }
  (alloc.max_ppn() > 1 ? varying : fixed).push_back(detail::kSlotKey);
}

/// The default order first, then every other permutation of the varying keys if there are at
/// most `limit` of them, else distinct random ones (seeded) up to `limit`.
std::vector<detail::DimensionOrder> candidate_orders(const detail::DimensionOrder& varying,
                                                     const detail::DimensionOrder& fixed, long long limit,
                                                     std::uint64_t seed) {
  long long count = 1;
  for (std::size_t i = 2; i <= varying.size() && count <= limit; ++i) count *= static_cast<long long>(i);
  std::vector<detail::DimensionOrder> orders;
  const auto add = [&](const detail::DimensionOrder& v) {
    detail::DimensionOrder order = fixed;
    order.insert(order.end(), v.begin(), v.end());
    orders.push_back(std::move(order));
  };
  detail::DimensionOrder v = varying;
  if (count <= limit) {
    do add(v);
    while (std::next_permutation(v.begin(), v.end(), [&](int a, int b) {
      // The default order (dimensions ascending, T last) is the first permutation.
      const auto rank = [](int key) { return key == detail::kSlotKey ? 1 << 20 : key; };
      return rank(a) < rank(b);
    }));
    return orders;
  }
  std::set<detail::DimensionOrder> seen{v};
  add(v);
  std::mt19937_64 rng(seed);
  while (static_cast<long long>(orders.size()) < limit) {
    std::shuffle(v.begin(), v.end(), rng);
    if (seen.insert(v).second) add(v);
  }
  return orders;
}

}  // namespace

// Scores every dimension order (at most 720 by default, `dimorder-best:N` for another limit)
// by the objective (MCL under options.routing, ties broken by hop-bytes) and keeps the best.
// The default order is scored first; the others are skipped once the time budget is spent.
Mapping map_dimorder_best(const graph::CommGraph& graph, const topology::Allocation& alloc,
                          const MapOptions& options) {
  topology::require_grid(alloc.network(), "dimorder-best");
  const Deadline deadline(options.time_budget_ms);
  const long long limit = detail::count_parameter(options, "dimorder-best", kDefaultMaxCandidates);
  detail::DimensionOrder varying, fixed;
  split_keys(alloc, varying, fixed);
  const detail::ObjectiveScorer score(graph, alloc, options);
  Mapping best;
  detail::Score best_score;
  for (const detail::DimensionOrder& order : candidate_orders(varying, fixed, limit, options.seed)) {
    if (!best.empty() && deadline.passed()) break;
    Mapping m = detail::lay_along(detail::slots_in_dimension_order(alloc, order));
    const detail::Score s = score(m);
    if (best.empty() || s < best_score) best = std::move(m), best_score = s;
  }
  return best;
}

}  // namespace rankmap::mapping
