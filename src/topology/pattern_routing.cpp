// The route-pattern cache and the minimal-path box shared by the grid routing models.
#include "pattern_routing.hpp"

#include <algorithm>

namespace rankmap::topology::detail {

namespace {

// Enough for every offset of a 16x16x16x8x2 torus under adaptive routing at ~32 bytes a step;
// beyond it patterns are rebuilt per call instead of growing memory without bound.
constexpr std::size_t kMaxCachedSteps = std::size_t{1} << 21;
constexpr std::uint64_t kMaxBoxPoints = std::uint64_t{1} << 26;

}  // namespace

std::size_t OffsetKeyHash::operator()(const OffsetKey& k) const noexcept {
  std::size_t h = 0x9e3779b97f4a7c15ULL;
  for (auto v : k.offset) h = (h ^ static_cast<std::uint32_t>(v)) * 0x100000001b3ULL;
  return h;
}

PatternRouting::PatternRouting(Grid grid) : network_(std::move(grid)), grid_(*network_.grid_if()) {}

// Every routing model here treats the two directions of a dimension alike, so the route of a
// negative offset is the mirror image of the positive one's. Caching only the positive ones holds
// 2^n times fewer patterns: on 2,000 scattered nodes of torus:16x24x24 the cache was full, and
// rebuilding patterns took about half the time of scoring a mapping.
OffsetKey PatternRouting::key_of(const Coords& src, const Coords& dst, std::uint32_t& mirrored) const {
  OffsetKey key;
  mirrored = 0;
  for (int d = 0; d < grid_.ndims(); ++d) {
    const int off = grid_.offset(src[d], dst[d], d);  // a tie is positive, so never mirrored
    key.offset[d] = std::abs(off);
    if (off < 0) mirrored |= 1u << d;
  }
  return key;
}

std::vector<RouteStep> PatternRouting::marked(std::vector<RouteStep> steps) {
  for (std::size_t i = 0; i < steps.size(); ++i) steps[i].new_point = i == 0 || steps[i].rel != steps[i - 1].rel;
  return steps;
}

const std::vector<RouteStep>& PatternRouting::pattern(const OffsetKey& key, std::vector<RouteStep>& scratch) const {
  {
    std::shared_lock lock(cache_mutex_);
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    if (cached_steps_ >= kMaxCachedSteps) {
      lock.unlock();
      scratch = marked(build_pattern(key));
      return scratch;
    }
  }
  std::vector<RouteStep> built = marked(build_pattern(key));
  std::unique_lock lock(cache_mutex_);
  auto [it, inserted] = cache_.try_emplace(key, std::move(built));
  if (inserted) cached_steps_ += it->second.size();
  return it->second;  // unordered_map never moves its values, so the reference stays valid
}

template <typename Visit>
void PatternRouting::for_each_channel(NodeId src, NodeId dst, Visit&& visit) const {
  if (src == dst) return;
  const Coords s = grid_.coords_of(src);
  const Coords t = grid_.coords_of(dst);
  thread_local std::vector<RouteStep> scratch;
  std::uint32_t mirrored = 0;
  const std::vector<RouteStep>& steps = pattern(key_of(s, t, mirrored), scratch);
  const int n = grid_.ndims();
  std::array<int, kMaxDims> sign{}, extent{}, stride{};
  for (int d = 0; d < n; ++d) {
    sign[d] = mirrored >> d & 1u ? -1 : 1;
    extent[d] = grid_.extent(d);
    stride[d] = static_cast<int>(grid_.stride(d));
  }
  // Patterns list the steps out of one point together, so the node is found once per point.
  NodeId node = 0;
  for (const RouteStep& step : steps) {
    if (step.new_point) {
      node = 0;
      for (int d = 0; d < n; ++d) {
        int c = s[d] + sign[d] * step.rel[d];
        if (c >= extent[d]) c -= extent[d];
        else if (c < 0) c += extent[d];
        node += c * stride[d];
      }
    }
    const int dir = sign[step.dim] > 0 ? step.dir : 1 - step.dir;
    visit(grid_.channel(node, step.dim, static_cast<Direction>(dir)), step.dim, step.fraction);
  }
}

void PatternRouting::route(NodeId src, NodeId dst, std::vector<ChannelShare>& out) const {
  for_each_channel(src, dst, [&](ChannelId c, int, double fraction) { out.push_back({c, fraction}); });
}

void PatternRouting::route_loads(NodeId src, NodeId dst, std::vector<ChannelShare>& out) const {
  for_each_channel(src, dst, [&](ChannelId c, int dim, double fraction) {
    out.push_back({c, fraction / grid_.capacity(dim)});
  });
}

void PatternRouting::add_flow(NodeId src, NodeId dst, double bytes, std::span<double> loads) const {
  std::array<double, kMaxDims> per_capacity{};
  for (int d = 0; d < grid_.ndims(); ++d) per_capacity[d] = bytes / grid_.capacity(d);
  for_each_channel(src, dst, [&](ChannelId c, int dim, double fraction) { loads[c] += per_capacity[dim] * fraction; });
}

MinimalPathBox::MinimalPathBox(const Grid& grid, const OffsetKey& key) : ndims_(grid.ndims()) {
  std::uint64_t stride = 1;
  bool any_tie = false;
  for (int d = ndims_ - 1; d >= 0; --d) {
    const int off = key.offset[d];
    magnitude_[d] = std::abs(off);
    sign_[d] = off < 0 ? -1 : 1;
    tie_[d] = grid.is_torus(d) && grid.extent(d) > 2 && grid.extent(d) % 2 == 0 && 2 * magnitude_[d] == grid.extent(d);
    any_tie |= tie_[d];
    length_[d] = tie_[d] ? 2 * magnitude_[d] + 1 : magnitude_[d] + 1;
    stride_[d] = static_cast<std::uint32_t>(stride);
    stride *= static_cast<std::uint64_t>(length_[d]);
    if (stride > kMaxBoxPoints)
      throw InputError("routing on " + grid.to_string() +
                       ": a flow has too many minimal paths to enumerate; use dor routing on grids this large");
  }
  num_points_ = static_cast<std::size_t>(stride);
  tabulate_positions();
  order_points(any_tie);
}

std::size_t MinimalPathBox::num_steps() const noexcept {
  std::size_t steps = 0;
  for (int d = 0; d < ndims_; ++d)
    steps += num_points_ / static_cast<std::size_t>(length_[d]) * static_cast<std::size_t>(tie_[d] ? 2 * magnitude_[d] : magnitude_[d]);
  return steps;
}

// Counts through the box like an odometer, the last dimension fastest (its stride is 1).
void MinimalPathBox::tabulate_positions() {
  position_.resize(num_points_ * static_cast<std::size_t>(ndims_));
  std::array<int, kMaxDims> u{};
  for (std::size_t p = 0; p < num_points_; ++p) {
    for (int d = 0; d < ndims_; ++d)
      position_[p * ndims_ + d] = static_cast<std::int16_t>(tie_[d] ? u[d] - magnitude_[d] : u[d] * sign_[d]);
    for (int d = ndims_ - 1; d >= 0 && ++u[d] == length_[d]; --d) u[d] = 0;
  }
}

// Without a tie every step raises one |position| by one, that is the index by a stride, so index
// order already goes from the source (index 0) outwards. A tie dimension extends both ways from
// its middle, so then the points are sorted by hop count (counting sort).
void MinimalPathBox::order_points(bool any_tie) {
  order_.resize(num_points_);
  if (!any_tie) {
    for (std::uint32_t p = 0; p < num_points_; ++p) order_[p] = p;
    return;
  }
  int max_level = 0;
  for (int d = 0; d < ndims_; ++d) max_level += magnitude_[d];
  std::vector<std::uint32_t> level(num_points_);
  std::vector<std::uint32_t> count(max_level + 2, 0);
  for (std::uint32_t p = 0; p < num_points_; ++p) {
    int l = 0;
    for (int d = 0; d < ndims_; ++d) l += std::abs(signed_position(p, d));
    level[p] = static_cast<std::uint32_t>(l);
    ++count[l + 1];
  }
  for (int l = 0; l <= max_level; ++l) count[l + 1] += count[l];
  for (std::uint32_t p = 0; p < num_points_; ++p) order_[count[level[p]]++] = p;
}

// Minimal paths from a point with h_d hops left in each dimension: (sum h)! / prod h_d!, doubled
// per tie dimension still at its fork. A step in dimension d leaves h_d - 1 there, so it carries
// h_d / sum h of them, halved at a fork.
double MinimalPathBox::path_fraction(std::uint32_t point, int dim) const {
  int hops_left = 0;
  for (int d = 0; d < ndims_; ++d) hops_left += magnitude_[d] - std::abs(signed_position(point, d));
  const int in_dim = magnitude_[dim] - std::abs(signed_position(point, dim));
  const bool fork = tie_[dim] && signed_position(point, dim) == 0;
  return static_cast<double>(in_dim) / (fork ? 2.0 * hops_left : hops_left);
}

RouteStep MinimalPathBox::make_step(std::uint32_t point, int dim, Direction dir, double fraction) const {
  RouteStep step{};
  for (int d = 0; d < ndims_; ++d) step.rel[d] = static_cast<std::int16_t>(signed_position(point, d));
  step.dim = static_cast<std::uint8_t>(dim);
  step.dir = static_cast<std::uint8_t>(dir);
  step.fraction = fraction;
  return step;
}

}  // namespace rankmap::topology::detail
