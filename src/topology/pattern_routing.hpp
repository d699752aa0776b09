// Shared engine of the grid routing models: routes are computed once per offset vector
// as relative patterns, cached, and translated to each flow's source node.
#pragma once

#include <rankmap/topology/routing.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

namespace rankmap::topology::detail {

/// A relative route: its steps, each leaving a point (relative to the source) along a dimension in
/// a direction with a fraction of the flow, the steps out of one point together. A point's position
/// is kept once, with its first step: routing a flow finds the node once per point, and comparing
/// the offsets at every step took a sixth of the scoring time. A step is its fraction and one byte
/// of dimension, direction and new-point flag, about 11 bytes in all on a 3D grid: at 32 bytes,
/// the patterns that one scoring built on 2,000 scattered nodes of torus:16x24x24 filled 18 MB of
/// fresh memory, and touching it first (about 20 us a 4 KiB page on this project's machines) took
/// three quarters of the scoring.
class RoutePattern {
 public:
  explicit RoutePattern(int ndims = 0) : ndims_(ndims) {}
  /// Room for `steps` steps out of `points` points: growing by doubling would copy them and leave
  /// up to half the memory unused.
  void reserve(std::size_t steps, std::size_t points) {
    fraction_.reserve(steps), code_.reserve(steps), rel_.reserve(points * static_cast<std::size_t>(ndims_));
  }
  /// Adds the step out of the point at `rel` (ndims signed offsets from the source) along `dim` in
  /// `dir`; `first` when no step out of that point precedes it.
  void add_step(const std::int16_t* rel, int dim, Direction dir, double fraction, bool first) {
    if (first) rel_.insert(rel_.end(), rel, rel + ndims_);
    fraction_.push_back(fraction);
    code_.push_back(static_cast<std::uint8_t>(dim << 2 | static_cast<int>(dir) << 1 | (first ? 1 : 0)));
  }
  std::size_t num_steps() const noexcept { return fraction_.size(); }
  /// Calls at_point(rel) before the steps out of each point, and step(dim, dir, fraction) for each step,
  /// with dir as 0 (plus) or 1 (minus).
  template <typename AtPoint, typename Step>
  void walk(AtPoint&& at_point, Step&& step) const {
    const std::int16_t* rel = rel_.data();
    for (std::size_t i = 0; i < fraction_.size(); ++i) {
      const std::uint8_t code = code_[i];
      if (code & 1u) at_point(rel), rel += ndims_;
      step(code >> 2, code >> 1 & 1, fraction_[i]);
    }
  }

 private:
  int ndims_;
  std::vector<double> fraction_;
  std::vector<std::uint8_t> code_;
  std::vector<std::int16_t> rel_;  ///< ndims per point, in the order of the points' first steps
};

/// The magnitude of a flow's minimal offset in every dimension, as the cache key (a torus tie, the
/// only offset that goes both ways, is k/2).
struct OffsetKey {
  std::array<std::int32_t, kMaxDims> offset{};
};

/// A translation-invariant grid routing: the route of a flow depends only on its offset vector,
/// and that of a negative offset is the mirror image of the positive one's.
class PatternRouting : public RoutingModel {
 public:
  explicit PatternRouting(Grid grid);
  ~PatternRouting() override;
  const Network& network() const noexcept override { return network_; }
  void route(NodeId src, NodeId dst, std::vector<ChannelShare>& out) const override;
  void route_loads(NodeId src, NodeId dst, std::vector<ChannelShare>& out) const override;
  void add_flow(NodeId src, NodeId dst, double bytes, std::span<double> loads) const override;

 protected:
  /// The relative route for a flow with these per-dimension minimal offsets.
  virtual RoutePattern build_pattern(const OffsetKey& key) const = 0;
  /// A node's coordinates, from coords_ when the grid has it.
  Coords coords_of(NodeId node) const {
    if (coords_.empty()) return grid_.coords_of(node);
    Coords c{};
    const int n = grid_.ndims();
    const std::int16_t* at = coords_.data() + static_cast<std::size_t>(node) * static_cast<std::size_t>(n);
    for (int d = 0; d < n; ++d) c[d] = at[d];
    return c;
  }

 private:
  /// The offsets' magnitudes; bit d of `mirrored` is set where the offset along d is negative.
  OffsetKey key_of(const Coords& src, const Coords& dst, std::uint32_t& mirrored) const;
  /// Returns the cached pattern, or builds it into `scratch` when the grid has no cache or it is full.
  const RoutePattern& pattern(const OffsetKey& key, RoutePattern& scratch) const;
  /// The key's slot in cache_.
  std::size_t cache_index(const OffsetKey& key) const;
  void tabulate_coords();
  template <typename Visit>
  void for_each_channel(NodeId src, NodeId dst, Visit&& visit) const;

  Network network_;
  const Grid& grid_;  ///< network_'s
  std::array<std::size_t, kMaxDims> key_stride_{};
  /// One slot per possible key, filled once and never changed while the model lives: threads that
  /// share a model read patterns without a lock. A shared lock per routed flow made two threads
  /// routing short flows on one model twice as slow as with a model each. Null when the grid has
  /// too many keys to hold a slot each; patterns are then rebuilt per flow.
  std::unique_ptr<std::atomic<const RoutePattern*>[]> cache_;
  std::size_t num_cache_slots_ = 0;
  /// Every node's coordinates, node-major: dividing them out of the node indices, twice per flow,
  /// took about a fifth of the time of dimension-ordered routing (a few hops a flow). Empty on
  /// grids too large to hold them.
  std::vector<std::int16_t> coords_;
  mutable std::atomic<std::size_t> cached_steps_{0};
};

/// Enumerates the minimal-path region between a source and a destination: the box of
/// points reachable by productive steps only. On a torus tie a dimension extends both ways.
class MinimalPathBox {
 public:
  MinimalPathBox(const Grid& grid, const OffsetKey& key);

  std::size_t num_points() const noexcept { return num_points_; }
  /// How many productive steps leave the box's points in all (the size of a route pattern).
  std::size_t num_steps() const noexcept;
  /// Point indices in an order where every step goes from an earlier point to a later one, the
  /// source first.
  const std::vector<std::uint32_t>& points_in_order() const noexcept { return order_; }
  /// The productive steps out of `point`: calls visit(next_point, dim, dir).
  template <typename Visit>
  void for_each_step(std::uint32_t point, Visit&& visit) const;
  /// The hops from `point` to the destination.
  int hops_left(std::uint32_t point) const;
  /// The fraction of the minimal paths from `point`, `hops_to_go` hops from the destination, that
  /// leave it by a step in dimension `dim` (by each of the two steps where a tie dimension forks).
  /// It is a ratio of path counts, which themselves overflow a double on grids of a few hundred
  /// nodes a side.
  double path_fraction(std::uint32_t point, int dim, int hops_to_go) const;
  /// Adds the step out of `point` with the given fraction to `pattern`; `first` if no step out of
  /// `point` precedes it.
  void add_step(RoutePattern& pattern, std::uint32_t point, int dim, Direction dir, double fraction, bool first) const {
    pattern.add_step(position_.data() + static_cast<std::size_t>(point) * ndims_, dim, dir, fraction, first);
  }

 private:
  int signed_position(std::uint32_t point, int d) const { return position_[point * ndims_ + d]; }
  void tabulate_positions();
  void order_points(bool any_tie);

  int ndims_;
  std::array<int, kMaxDims> magnitude_{}, sign_{}, length_{};
  std::array<bool, kMaxDims> tie_{};
  std::array<std::uint32_t, kMaxDims> stride_{};
  std::size_t num_points_ = 1;
  std::vector<std::uint32_t> order_;
  /// Every point's signed position in every dimension, point-major: building routes reads them
  /// for every step, and a division per dimension and step took a third of the scoring time.
  std::vector<std::int16_t> position_;
};

template <typename Visit>
void MinimalPathBox::for_each_step(std::uint32_t point, Visit&& visit) const {
  for (int d = 0; d < ndims_; ++d) {
    const int p = signed_position(point, d);
    const int h = magnitude_[d];
    if (std::abs(p) >= h) continue;
    if (tie_[d]) {
      // Positions are stored as u = p + h, so one step changes u by +-1.
      if (p >= 0) visit(point + stride_[d], d, Direction::plus);
      if (p <= 0) visit(point - stride_[d], d, Direction::minus);
    } else {
      visit(point + stride_[d], d, sign_[d] > 0 ? Direction::plus : Direction::minus);
    }
  }
}

}  // namespace rankmap::topology::detail
