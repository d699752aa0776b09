// Minimal adaptive routing: the flow is split evenly over all minimal paths.
#include "routing_models.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace rankmap::topology::detail {

// A path drawn evenly from all minimal paths (ties included) is a walk that leaves each point by
// each step with the fraction of the point's paths that take it; the flow through a point times
// that fraction is the edge's share. Counting paths instead would overflow (see path_fraction).
RoutePattern AdaptiveRouting::build_pattern(const OffsetKey& key) const {
  const MinimalPathBox box(grid(), key);
  std::vector<double> through(box.num_points(), 0.0);
  through[box.points_in_order().front()] = 1.0;
  RoutePattern steps(grid().ndims());
  steps.reserve(box.num_steps(), box.num_points());
  for (std::uint32_t p : box.points_in_order()) {
    if (through[p] == 0.0) continue;
    const int hops_left = box.hops_left(p);
    bool first = true;
    box.for_each_step(p, [&](std::uint32_t q, int dim, Direction dir) {
      const double share = through[p] * box.path_fraction(p, dim, hops_left);
      // Shares too small for a double (far from the straight line on a long box) carry nothing.
      if (share == 0.0) return;
      through[q] += share;
      box.add_step(steps, p, dim, dir, share, first);
      first = false;
    });
  }
  return steps;
}

namespace {

/// The way from every coordinate to one destination's, per dimension: the signed minimal offset and
/// whether it is a torus tie. Looking these up instead of calling Grid per point halved the walk.
class TowardDestination {
 public:
  TowardDestination(const Grid& grid, NodeId dst) : grid_(grid) {
    const Coords target = grid.coords_of(dst);
    for (int d = 0; d < grid.ndims(); ++d) {
      first_[d] = static_cast<int>(offset_.size());
      for (int c = 0; c < grid.extent(d); ++c) {
        offset_.push_back(grid.offset(c, target[d], d));
        tie_.push_back(grid.is_tie(c, target[d], d) ? 1 : 0);
      }
    }
  }
  int offset(int d, int c) const { return offset_[first_[d] + c]; }
  bool tie(int d, int c) const { return tie_[first_[d] + c] != 0; }
  /// The hops to the destination from the node at `at`.
  int hops(const Coords& at) const {
    int h = 0;
    for (int d = 0; d < grid_.ndims(); ++d) h += std::abs(offset(d, at[d]));
    return h;
  }
  /// The points of the minimal-path box from the node at `at`: every minimal route stays inside it.
  double box_points(const Coords& at) const {
    double points = 1;
    for (int d = 0; d < grid_.ndims(); ++d) {
      const int h = std::abs(offset(d, at[d]));
      points *= tie(d, at[d]) ? 2 * h + 1 : h + 1;
    }
    return points;
  }
  /// The coordinate one step from c along d in direction `dir`, wrapping on a torus (a minimal
  /// route never steps off a mesh).
  int step(int d, int c, Direction dir) const {
    const int k = grid_.extent(d);
    if (dir == Direction::plus) return c + 1 == k ? 0 : c + 1;
    return c == 0 ? k - 1 : c - 1;
  }

 private:
  const Grid& grid_;
  std::array<int, kMaxDims> first_{};
  std::vector<int> offset_;
  std::vector<char> tie_;
};

/// add_flows_to() by walking the flows to `dst` together, whatever their overlap.
/// `coords_of` gives a node's coordinates (the routing model's table).
template <typename CoordsOf>
void walk_flows_to(const Grid& g, const TowardDestination& toward, NodeId dst, std::span<const SourceBytes> sources,
                   CoordsOf&& coords_of, std::span<double> loads) {
  const auto nodes = static_cast<std::size_t>(g.num_nodes());
  thread_local std::vector<double> arriving;  // bytes on their way to dst that reach each node; zero between calls
  thread_local std::vector<char> queued;
  thread_local std::vector<std::vector<NodeId>> at_hops;  // queued nodes by their hops to dst
  if (arriving.size() < nodes) arriving.resize(nodes, 0.0), queued.resize(nodes, 0);
  const auto enqueue = [&](NodeId node, int hops) {
    if (queued[node]) return;
    queued[node] = 1;
    if (at_hops.size() <= static_cast<std::size_t>(hops)) at_hops.resize(hops + 1);
    at_hops[hops].push_back(node);
  };
  int farthest = 0;
  for (const SourceBytes& flow : sources) {
    if (flow.src == dst) continue;
    const int hops = toward.hops(coords_of(flow.src));
    enqueue(flow.src, hops);
    arriving[flow.src] += flow.bytes;
    farthest = std::max(farthest, hops);
  }
  std::array<double, kMaxDims> per_capacity{};
  for (int d = 0; d < g.ndims(); ++d) per_capacity[d] = 1.0 / g.capacity(d);
  for (int hops = farthest; hops >= 1; --hops) {
    for (const NodeId p : at_hops[hops]) {
      const double bytes = arriving[p];
      arriving[p] = 0.0;
      queued[p] = 0;
      if (bytes == 0.0) continue;
      const Coords at = coords_of(p);
      for (int d = 0; d < g.ndims(); ++d) {
        const int c = at[d];
        const int off = toward.offset(d, c);
        if (off == 0) continue;
        const bool fork = toward.tie(d, c);
        const double share = bytes * std::abs(off) / (fork ? 2.0 * hops : hops);
        if (share == 0.0) continue;  // too small for a double, as in the per-flow patterns
        for (const Direction dir : {Direction::plus, Direction::minus}) {
          if (!fork && dir != (off > 0 ? Direction::plus : Direction::minus)) continue;
          loads[g.channel(p, d, dir)] += share * per_capacity[d];
          const NodeId q = p + static_cast<NodeId>(toward.step(d, c, dir) - c) * g.stride(d);
          enqueue(q, hops - 1);
          arriving[q] += share;
        }
      }
    }
    at_hops[hops].clear();
  }
  arriving[dst] = 0.0;
  queued[dst] = 0;
  if (!at_hops.empty()) at_hops[0].clear();
}

}  // namespace

// The share a step takes at a point depends only on the hops left to the destination (and whether
// a tie dimension is still at its fork, i.e. exactly half the ring away), not on where the flow
// started. So flows to one destination can be walked together: the bytes that reach a point, from
// every source, leave it in the same fractions. Points are taken farthest first, and every step
// brings the bytes one hop closer, so a point is spread only after everything that reaches it has.
// The walk visits each point of the union of the flows' boxes once but does more per point than a
// cached pattern does per step, so it is taken only when the boxes must overlap: when their points
// add up to several times the whole grid (dense traffic: 8,192 random tasks on 512 nodes have about
// 180 flows per destination over the same few hundred nodes). Otherwise each flow follows its
// pattern (nas-cg at 131,072 tasks on torus:16x16x16x8x2, a few sources per destination, took 2.5
// times as long walked).
void AdaptiveRouting::add_flows_to(NodeId dst, std::span<const SourceBytes> sources, std::span<double> loads) const {
  const TowardDestination toward(grid(), dst);
  double box_points = 0;
  for (const SourceBytes& flow : sources) box_points += toward.box_points(coords_of(flow.src));
  if (box_points < kWalkOverlap * static_cast<double>(grid().num_nodes())) {
    for (const SourceBytes& flow : sources) add_flow(flow.src, dst, flow.bytes, loads);
    return;
  }
  walk_flows_to(grid(), toward, dst, sources, [this](NodeId v) { return coords_of(v); }, loads);
}

}  // namespace rankmap::topology::detail
