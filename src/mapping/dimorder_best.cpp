// The dimorder-best mapper: dimension traversal orders ranked by hop-bytes, then scored under the routing model.
#include <rankmap/mapping/mapping.hpp>

#include <rankmap/metrics/hop_bytes.hpp>

#include "dimension_order.hpp"
#include "objective_score.hpp"
#include "parameter.hpp"
#include "slot_layout.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <unordered_map>

namespace rankmap::mapping {

namespace {

/// 6! = 720: every order of a 5-D grid and T (Blue Gene/Q) is tried.
constexpr long long kDefaultMaxCandidates = 720;

/// The share of the budget that ranking the orders by hop-bytes may take (never past the deadline);
/// the rest scores them by the objective, most promising first.
constexpr double kScreeningShare = 0.5;

/// The keys whose order matters: dimensions along which the allocation has more than one
/// coordinate, and T when some node has more than one slot. The others are constant and
/// are kept in front, where they change nothing.
void split_keys(const topology::Allocation& alloc, detail::DimensionOrder& varying, detail::DimensionOrder& fixed) {
  const topology::Grid& grid = alloc.grid();
  for (int d = 0; d < grid.ndims(); ++d) {
    const int first = grid.coord(alloc.node(0), d);
    const bool varies =
        std::any_of(alloc.nodes().begin(), alloc.nodes().end(), [&](NodeId n) { return grid.coord(n, d) != first; });
    (varies ? varying : fixed).push_back(d);
  }
  (alloc.max_ppn() > 1 ? varying : fixed).push_back(detail::kSlotKey);
}

/// Each allocated node's slot count, by grid node.
std::unordered_map<NodeId, std::size_t> slot_counts(const topology::Allocation& alloc) {
  std::unordered_map<NodeId, std::size_t> slots;
  for (int i = 0; i < alloc.num_nodes(); ++i) slots[alloc.node(i)] = alloc.slots_of_node(i).size();
  return slots;
}

/// Whether swapping grid dimensions a and b maps the allocation (its `slots` by node) onto itself.
bool swap_keeps_allocation(const topology::Grid& grid, const std::unordered_map<NodeId, std::size_t>& slots, int a,
                           int b) {
  if (grid.extent(a) != grid.extent(b) || grid.is_torus(a) != grid.is_torus(b) || grid.capacity(a) != grid.capacity(b))
    return false;
  for (const auto& [node, count] : slots) {
    topology::Coords c = grid.coords_of(node);
    std::swap(c[a], c[b]);
    const auto image = slots.find(grid.node_at(std::span<const int>(c.data(), static_cast<std::size_t>(grid.ndims()))));
    if (image == slots.end() || image->second != count) return false;
  }
  return true;
}

/// For each grid dimension, the smallest dimension it can be swapped with (itself if none): the
/// same extent, wrap and capacity, and an allocation that the swap maps onto itself. Under a routing
/// that treats the dimensions alike (adaptive, adaptive-hop), two orders that differ only by which
/// of such dimensions comes where give mirror-image mappings with the same MCL and hop-bytes, so only
/// one of them needs scoring: of the 720 orders on the whole torus:4x4x4x4x2 with T, 30 differ. Under
/// dor, which corrects the dimensions in a fixed order, none are alike.
std::vector<int> alike_dimensions(const topology::Allocation& alloc, const MapOptions& options) {
  const int n = alloc.grid().ndims();
  std::vector<int> alike(static_cast<std::size_t>(n));
  std::iota(alike.begin(), alike.end(), 0);
  const bool symmetric_routing = options.routing.kind == topology::RoutingKind::standard ||
                                 options.routing.kind == topology::RoutingKind::adaptive ||
                                 options.routing.kind == topology::RoutingKind::adaptive_hop;
  if (!symmetric_routing) return alike;
  const auto slots = slot_counts(alloc);
  for (int b = 1; b < n; ++b)
    for (int a = 0; a < b; ++a)
      if (alike[a] == a && swap_keeps_allocation(alloc.grid(), slots, a, b)) {
        alike[b] = a;
        break;
      }
  return alike;
}

/// `order` with the dimensions of each group of alike ones put in ascending order where they stand.
detail::DimensionOrder canonical(detail::DimensionOrder order, const std::vector<int>& alike) {
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (order[i] == detail::kSlotKey || alike[order[i]] != order[i]) continue;
    std::vector<std::size_t> where;
    std::vector<int> keys;
    for (std::size_t j = 0; j < order.size(); ++j)
      if (order[j] != detail::kSlotKey && alike[order[j]] == order[i]) where.push_back(j), keys.push_back(order[j]);
    std::sort(keys.begin(), keys.end());
    for (std::size_t k = 0; k < where.size(); ++k) order[where[k]] = keys[k];
  }
  return order;
}

/// The default order first, then one permutation of the varying keys per group of orders that
/// differ only by alike dimensions, all of them if there are at most `limit`, else distinct random
/// ones (seeded) up to `limit`.
std::vector<detail::DimensionOrder> candidate_orders(const detail::DimensionOrder& varying,
                                                     const detail::DimensionOrder& fixed, const std::vector<int>& alike,
                                                     long long limit, std::uint64_t seed) {
  // Distinct orders: (keys)! / (group size)! for each group; at most 9 keys (8 dimensions and T).
  long long count = 1;
  for (std::size_t i = 2; i <= varying.size(); ++i) count *= static_cast<long long>(i);
  std::vector<long long> group_size(alike.size(), 0);
  for (int key : varying)
    if (key != detail::kSlotKey) ++group_size[alike[key]];
  for (long long size : group_size)
    for (long long i = 2; i <= size; ++i) count /= i;
  std::vector<detail::DimensionOrder> orders;
  const auto add = [&](const detail::DimensionOrder& v) {
    detail::DimensionOrder order = fixed;
    order.insert(order.end(), v.begin(), v.end());
    orders.push_back(std::move(order));
  };
  detail::DimensionOrder v = varying;
  if (count <= limit) {
    do
      if (canonical(v, alike) == v) add(v);
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
    const detail::DimensionOrder c = canonical(v, alike);
    if (seen.insert(c).second) add(c);
  }
  return orders;
}

/// The mapping that lays tasks along the slots in `order`.
Mapping laid_along(const topology::Allocation& alloc, const detail::DimensionOrder& order) {
  return detail::lay_along(detail::slots_in_dimension_order(alloc, order));
}

/// One order of orders[1..] and its mapping's hop-bytes.
struct Screened {
  double hop_bytes;
  std::size_t order;
};

/// orders[1..] by increasing hop-bytes, as many as `deadline` leaves time to measure. Hop-bytes
/// costs one pass over the edges where MCL routes every flow, so within a budget too short to score
/// every order (20 ms of auto's 200 at a thousand tasks covers about 8 of 24) the orders that will
/// be scored are the likely ones, not the first in lexicographic order. The mappings are not kept:
/// 720 orders of 16,384 tasks would hold 47 MB, and laying one out again costs less than scoring it.
std::vector<Screened> screened(const graph::CommGraph& graph, const topology::Allocation& alloc,
                               std::span<const detail::DimensionOrder> orders, const Deadline& deadline) {
  std::vector<Screened> ranked;
  for (std::size_t i = 1; i < orders.size() && !deadline.passed(); ++i)
    ranked.push_back({metrics::hop_bytes(graph, alloc, laid_along(alloc, orders[i])), i});
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.hop_bytes < b.hop_bytes; });
  return ranked;
}

}  // namespace

// Scores the default order and the other dimension orders (at most 720 by default,
// `dimorder-best:N` for another limit) by the objective (MCL under options.routing, ties broken by
// hop-bytes) in increasing hop-bytes, the default order just before the first of them, and keeps the
// best; a scoring the deadline cuts is abandoned, so the default order is returned when no other
// order could be scored.
Mapping map_dimorder_best(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  topology::require_grid(alloc.network(), "dimorder-best");
  const Deadline deadline(options.time_budget_ms);
  const long long limit = detail::count_parameter(options, "dimorder-best", kDefaultMaxCandidates);
  detail::DimensionOrder varying, fixed;
  split_keys(alloc, varying, fixed);
  const std::vector<detail::DimensionOrder> orders =
      candidate_orders(varying, fixed, alike_dimensions(alloc, options), limit, options.seed);
  Mapping best = laid_along(alloc, orders.front());
  const Deadline screening(std::min(options.time_budget_ms * kScreeningShare, deadline.remaining_ms()));
  const std::vector<Screened> ranked = screened(graph, alloc, orders, screening);
  if (options.objective == Objective::hop_bytes) {  // the screening has scored them all
    if (!ranked.empty() && ranked.front().hop_bytes < metrics::hop_bytes(graph, alloc, best))
      best = laid_along(alloc, orders[ranked.front().order]);
    return best;
  }
  // The default order is scored only when another competes with it, and no scoring runs past the
  // deadline (the overrun inside auto that this avoids: map_emahd).
  if (ranked.empty()) return best;
  const detail::ObjectiveScorer score(graph, alloc, options);
  std::optional<detail::Score> best_score = score.within(best, deadline);
  if (!best_score) return best;
  for (const Screened& candidate : ranked) {
    Mapping m = laid_along(alloc, orders[candidate.order]);
    const std::optional<detail::Score> s = score.within(m, deadline);
    if (!s) break;
    if (*s < *best_score) best = std::move(m), best_score = s;
  }
  return best;
}

}  // namespace rankmap::mapping
