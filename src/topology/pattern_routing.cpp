// The route-pattern cache and the minimal-path box shared by the grid routing models.
#include "pattern_routing.hpp"

#include <algorithm>
#include <limits>

namespace rankmap::topology::detail {

namespace {

// Enough for every offset of a 16x16x16x8x2 torus under adaptive routing;
// beyond it patterns are rebuilt per call instead of growing memory without bound.
constexpr std::size_t kMaxCachedSteps = std::size_t{1} << 21;
constexpr std::uint64_t kMaxBoxPoints = std::uint64_t{1} << 26;
/// Slots of the pattern cache (8 bytes each): a 3D torus needs (k/2 + 1)^3 of them, 4,913 at
/// 32x32x32 and 7,290 for torus:16x16x16x8x2.
constexpr std::size_t kMaxCacheSlots = std::size_t{1} << 20;
/// Coordinates held for every node (2 bytes each): up to 8 MB.
constexpr std::size_t kMaxTabulatedCoords = std::size_t{1} << 22;

}  // namespace

static_assert(kMaxExtent - 1 <= std::numeric_limits<std::int16_t>::max(), "a coordinate must fit coords_");

PatternRouting::PatternRouting(Grid grid) : network_(std::move(grid)), grid_(*network_.grid_if()) {
  tabulate_coords();
  std::size_t slots = 1;
  for (int d = grid_.ndims() - 1; d >= 0; --d) {
    key_stride_[d] = slots;
    // A torus offset's magnitude is at most k/2, a mesh offset's k - 1.
    slots *= static_cast<std::size_t>(grid_.is_torus(d) ? grid_.extent(d) / 2 + 1 : grid_.extent(d));
    if (slots > kMaxCacheSlots) return;
  }
  cache_ = std::make_unique<std::atomic<const RoutePattern*>[]>(slots);  // all null
  num_cache_slots_ = slots;
}

PatternRouting::~PatternRouting() {
  for (std::size_t i = 0; i < num_cache_slots_; ++i) delete cache_[i].load(std::memory_order_relaxed);
}

std::size_t PatternRouting::cache_index(const OffsetKey& key) const {
  std::size_t index = 0;
  for (int d = 0; d < grid_.ndims(); ++d) index += static_cast<std::size_t>(key.offset[d]) * key_stride_[d];
  return index;
}

// Every routing model here treats the two directions of a dimension alike, so the route of a
// negative offset is the mirror image of the positive one's. Caching only the positive ones holds
// 2^n times fewer patterns: on 2,000 scattered nodes of torus:16x24x24 the cache was full, and
// rebuilding patterns took about half the time of scoring a mapping.
OffsetKey PatternRouting::key_of(const Coords& src, const Coords& dst, std::uint32_t& mirrored) const {
  OffsetKey key;
  mirrored = 0;
  for (int d = 0; d < grid_.ndims(); ++d) {
    const int off = grid_.axis_offset(d, src[d], dst[d]);  // a tie is positive, so never mirrored
    key.offset[d] = std::abs(off);
    if (off < 0) mirrored |= 1u << d;
  }
  return key;
}

// Two threads may build the same pattern at once; the first to publish it wins and the other's
// copy is dropped, so a slot never changes once set and readers need no lock.
const RoutePattern& PatternRouting::pattern(const OffsetKey& key, RoutePattern& scratch) const {
  std::atomic<const RoutePattern*>* slot = cache_ ? &cache_[cache_index(key)] : nullptr;
  if (slot)
    if (const RoutePattern* cached = slot->load(std::memory_order_acquire)) return *cached;
  scratch = build_pattern(key);
  if (!slot || cached_steps_.load(std::memory_order_relaxed) >= kMaxCachedSteps) return scratch;
  auto built = std::make_unique<const RoutePattern>(std::move(scratch));
  const RoutePattern* expected = nullptr;
  if (slot->compare_exchange_strong(expected, built.get(), std::memory_order_acq_rel, std::memory_order_acquire)) {
    cached_steps_.fetch_add(built->num_steps(), std::memory_order_relaxed);
    return *built.release();
  }
  return *expected;
}

// Node indices are row-major, the last dimension fastest, so the coordinates count up like an
// odometer, without the two divisions per node and dimension that coords_ saves routing.
void PatternRouting::tabulate_coords() {
  const auto nodes = static_cast<std::size_t>(grid_.num_nodes());
  const int n = grid_.ndims();
  if (nodes * static_cast<std::size_t>(n) > kMaxTabulatedCoords) return;
  coords_.resize(nodes * static_cast<std::size_t>(n));
  std::array<int, kMaxDims> c{};
  for (std::size_t v = 0; v < nodes; ++v) {
    for (int d = 0; d < n; ++d) coords_[v * static_cast<std::size_t>(n) + d] = static_cast<std::int16_t>(c[d]);
    for (int d = n - 1; d >= 0 && ++c[d] == grid_.extent(d); --d) c[d] = 0;
  }
}

template <typename Visit>
void PatternRouting::for_each_channel(NodeId src, NodeId dst, Visit&& visit) const {
  if (src == dst) return;
  const Coords s = coords_of(src);
  const Coords t = coords_of(dst);
  RoutePattern scratch;  // holds the pattern only when it is not cached
  std::uint32_t mirrored = 0;
  const RoutePattern& steps = pattern(key_of(s, t, mirrored), scratch);
  const int n = grid_.ndims();
  std::array<int, kMaxDims> sign{}, flip{}, extent{}, stride{};
  for (int d = 0; d < n; ++d) {
    flip[d] = static_cast<int>(mirrored >> d & 1u);
    sign[d] = flip[d] ? -1 : 1;
    extent[d] = grid_.extent(d);
    stride[d] = static_cast<int>(grid_.stride(d));
  }
  // A channel's index is its node's first channel plus 2 * dim + dir (Grid::channel).
  ChannelId node_channels = 0;
  steps.walk(
      [&](const std::int16_t* rel) {
        NodeId node = 0;
        for (int d = 0; d < n; ++d) {
          int c = s[d] + sign[d] * rel[d];
          if (c >= extent[d])
            c -= extent[d];
          else if (c < 0)
            c += extent[d];
          node += c * stride[d];
        }
        node_channels = grid_.channel(node, 0, Direction::plus);
      },
      [&](int dim, int dir, double fraction) { visit(node_channels + 2 * dim + (dir ^ flip[dim]), dim, fraction); });
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

int MinimalPathBox::hops_left(std::uint32_t point) const {
  int hops = 0;
  for (int d = 0; d < ndims_; ++d) hops += magnitude_[d] - std::abs(signed_position(point, d));
  return hops;
}

// Minimal paths from a point with h_d hops left in each dimension: (sum h)! / prod h_d!, doubled
// per tie dimension still at its fork. A step in dimension d leaves h_d - 1 there, so it carries
// h_d / sum h of them, halved at a fork.
double MinimalPathBox::path_fraction(std::uint32_t point, int dim, int hops_to_go) const {
  const int in_dim = magnitude_[dim] - std::abs(signed_position(point, dim));
  const bool fork = tie_[dim] && signed_position(point, dim) == 0;
  return static_cast<double>(in_dim) / (fork ? 2.0 * hops_to_go : hops_to_go);
}

}  // namespace rankmap::topology::detail
