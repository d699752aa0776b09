// The generators behind make_pattern(), one per pattern family, and the edge list they fill.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace rankmap::graph::patterns {

/// Edges of a generated pattern. Messages to oneself are local copies, not traffic, so they are dropped.
class EdgeList {
 public:
  explicit EdgeList(std::int64_t expected) { edges_.reserve(static_cast<std::size_t>(expected)); }
  void add(TaskId src, TaskId dst, double bytes) {
    if (src != dst) edges_.push_back({src, dst, bytes});
  }
  CommGraph build(TaskId ranks) && { return CommGraph::from_edges(ranks, std::move(edges_)); }

 private:
  std::vector<Edge> edges_;
};

/// 5-point (2 dims), 7-point (3 dims) or, with `diagonals`, 27-point (3 dims) halo exchange.
CommGraph stencil(std::span<const int> dims, bool periodic, bool diagonals, double bytes);

CommGraph ring(TaskId ranks, double bytes);
CommGraph recursive_doubling(TaskId ranks, double bytes);
CommGraph binomial_tree(TaskId ranks, double bytes);
CommGraph bruck(TaskId ranks, double bytes);
CommGraph all_to_all(TaskId ranks, double bytes);
CommGraph random_sparse(TaskId ranks, double bytes, std::uint64_t seed);
/// Out-degree of random_sparse (fewer when there are fewer other ranks).
inline constexpr int kRandomDegree = 6;

CommGraph fft2d(int rows, int cols, double bytes);
CommGraph nas_cg(int rows, int cols, double bytes);
/// NPB BT/SP multi-partition on a q x q process grid; the solve sweeps add `forward` times the
/// face bytes towards each successor and `backward` times towards each predecessor.
CommGraph nas_multipartition(int q, double bytes, double forward, double backward);

}  // namespace rankmap::graph::patterns
