// Centrality, weighted centres and node rings on a grid, for the greedy mappers.
#include "grid_search.hpp"

#include <algorithm>

namespace rankmap::mapping::detail {

namespace {

constexpr std::size_t kMaxCenterAnchors = 32;

/// cost[x] = sum over v of hist[v] * distance(x, v) along dimension d, for every x; `count` and
/// `sum` are scratch space.
void line_costs(const topology::Grid& grid, int d, std::span<const double> hist, std::vector<double>& cost,
                std::vector<double>& count, std::vector<double>& sum) {
  const int k = grid.extent(d);
  cost.assign(static_cast<std::size_t>(k), 0.0);
  if (!grid.is_torus(d)) {
    double below_count = 0, below_sum = 0, total_count = 0, total_sum = 0;
    for (int v = 0; v < k; ++v) total_count += hist[v], total_sum += hist[v] * v;
    for (int x = 0; x < k; ++x) {
      const double above_count = total_count - below_count - hist[x];
      const double above_sum = total_sum - below_sum - hist[x] * x;
      cost[x] = x * below_count - below_sum + above_sum - x * above_count;
      below_count += hist[x];
      below_sum += hist[x] * x;
    }
    return;
  }
  // On a ring, walk the doubled line: from x, points up to half a ring ahead are reached going
  // forward, the rest going backward.
  count.assign(2 * static_cast<std::size_t>(k) + 1, 0.0);
  sum.assign(count.size(), 0.0);
  for (int u = 0; u < 2 * k; ++u) {
    count[u + 1] = count[u] + hist[u % k];
    sum[u + 1] = sum[u] + hist[u % k] * u;
  }
  const int half = k / 2;
  for (int x = 0; x < k; ++x) {
    const int mid = x + half + 1;
    const double forward = (sum[mid] - sum[x]) - x * (count[mid] - count[x]);
    const double backward = (x + k) * (count[x + k] - count[mid]) - (sum[x + k] - sum[mid]);
    cost[x] = forward + backward;
  }
}

}  // namespace

void AnchorCost::reset(std::span<const Anchor> anchors) {
  anchors_ = anchors;
  total_weight_ = 0;
  for (const Anchor& a : anchors) total_weight_ += a.weight;
  std::size_t extents = 0;
  for (int d = 0; d < grid_.ndims(); ++d) extents += static_cast<std::size_t>(grid_.extent(d));
  tabled_ = extents <= 4 * anchors.size() * static_cast<std::size_t>(grid_.ndims()) + 64;
  if (tabled_) reset_tables();
  else reset_direct();
  center_cost_ = (*this)(center_);
}

void AnchorCost::reset_tables() {
  table_.resize(static_cast<std::size_t>(grid_.ndims()));
  for (int d = 0; d < grid_.ndims(); ++d) {
    histogram_.assign(static_cast<std::size_t>(grid_.extent(d)), 0.0);
    for (const Anchor& a : anchors_) histogram_[a.coords[d]] += a.weight;
    line_costs(grid_, d, histogram_, table_[d], count_, sum_);
    center_[d] = static_cast<int>(std::min_element(table_[d].begin(), table_[d].end()) - table_[d].begin());
  }
}

void AnchorCost::reset_direct() {
  std::span<const Anchor> chosen = anchors_;
  std::vector<Anchor> heaviest;
  if (chosen.size() > kMaxCenterAnchors) {
    heaviest.assign(chosen.begin(), chosen.end());
    std::partial_sort(heaviest.begin(), heaviest.begin() + kMaxCenterAnchors, heaviest.end(),
                      [](const Anchor& a, const Anchor& b) { return a.weight > b.weight; });
    heaviest.resize(kMaxCenterAnchors);
    chosen = heaviest;
  }
  for (int d = 0; d < grid_.ndims(); ++d) {
    double best = -1;
    for (const Anchor& candidate : chosen) {
      const int x = candidate.coords[d];
      double cost = 0;
      for (const Anchor& a : chosen) cost += a.weight * grid_.axis_hops(d, x, a.coords[d]);
      if (best < 0 || cost < best) best = cost, center_[d] = x;
    }
  }
}

double AnchorCost::operator()(const topology::Coords& x) const {
  double total = 0;
  if (tabled_) {
    for (int d = 0; d < grid_.ndims(); ++d) total += table_[d][x[d]];
    return total;
  }
  for (const Anchor& a : anchors_) total += a.weight * grid_.hops(x, a.coords);
  return total;
}

std::vector<double> total_hops_to_all(const topology::Allocation& alloc) {
  if (!alloc.network().is_grid()) return alloc.network().hops_to_all(alloc.nodes());
  const topology::Grid& grid = alloc.grid();
  std::vector<double> total(static_cast<std::size_t>(alloc.num_nodes()), 0.0);
  std::vector<double> cost, count, sum;
  for (int d = 0; d < grid.ndims(); ++d) {
    std::vector<double> hist(static_cast<std::size_t>(grid.extent(d)), 0.0);
    for (NodeId n : alloc.nodes()) hist[grid.coord(n, d)] += 1;
    line_costs(grid, d, hist, cost, count, sum);
    for (int i = 0; i < alloc.num_nodes(); ++i) total[i] += cost[grid.coord(alloc.node(i), d)];
  }
  return total;
}

NodeLookup::NodeLookup(const topology::Allocation& alloc) {
  // A table costs 4 bytes per grid node; use it unless the allocation is a small part of a big grid.
  const NodeId grid_nodes = alloc.network().num_nodes();
  if (grid_nodes <= (NodeId{1} << 20) || grid_nodes <= 16 * static_cast<NodeId>(alloc.num_nodes())) {
    table_.assign(static_cast<std::size_t>(grid_nodes), -1);
    for (int i = 0; i < alloc.num_nodes(); ++i) table_[static_cast<std::size_t>(alloc.node(i))] = i;
  } else {
    map_.reserve(static_cast<std::size_t>(alloc.num_nodes()));
    for (int i = 0; i < alloc.num_nodes(); ++i) map_.emplace(alloc.node(i), i);
  }
}

RingOffsets::RingOffsets(const topology::Grid& grid, std::size_t max_points) : grid_(grid), ring_begin_{0} {
  // A grid whose mesh dimensions are doubled, centred so that every offset to either border fits.
  std::vector<int> extents;
  std::vector<bool> torus;
  topology::Coords center{};
  for (int d = 0; d < grid.ndims(); ++d) {
    const int k = grid.extent(d);
    extents.push_back(grid.is_torus(d) ? k : 2 * k - 1);
    torus.push_back(grid.is_torus(d));
    center[d] = grid.is_torus(d) ? 0 : k - 1;
  }
  topology::Grid wide;
  try {
    wide = topology::Grid(extents, torus);
  } catch (const InputError&) {
    return;  // too many points: no cache, RingWalker does the work
  }
  RingWalker walker(wide, center);
  for (int r = 0; r <= wide.diameter(); ++r) {
    const std::size_t before = offsets_.size();
    const bool complete = walker.walk(r, [&](NodeId, const topology::Coords& c) {
      if (offsets_.size() >= max_points) return false;
      Offset o{};
      for (int d = 0; d < grid.ndims(); ++d)
        o[d] = static_cast<std::int16_t>(grid.is_torus(d) ? wide.offset(0, c[d], d) : c[d] - center[d]);
      offsets_.push_back(o);
      return true;
    });
    if (!complete) {
      offsets_.resize(before);
      break;
    }
    ring_begin_.push_back(offsets_.size());
  }
}

RingWalker::RingWalker(const topology::Grid& grid, const topology::Coords& center)
    : grid_(grid), center_(center), reach_(static_cast<std::size_t>(grid.ndims()) + 1, 0) {
  for (int d = grid.ndims() - 1; d >= 0; --d) {
    const int k = grid.extent(d);
    const int farthest = grid.is_torus(d) ? k / 2 : std::max(center[d], k - 1 - center[d]);
    reach_[d] = reach_[d + 1] + farthest;
  }
}

}  // namespace rankmap::mapping::detail
