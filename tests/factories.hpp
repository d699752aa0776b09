// Shared graph and allocation factories for the unit tests.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/graph/patterns.hpp>
#include <rankmap/topology/allocation.hpp>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

namespace rankmap::testing {

/// Both directions of an undirected edge, w bytes each way.
inline void add_pair(std::vector<graph::Edge>& edges, TaskId a, TaskId b, double w) {
  edges.push_back({a, b, w});
  edges.push_back({b, a, w});
}

inline graph::CommGraph path_graph(TaskId n, double w = 1) {
  std::vector<graph::Edge> e;
  for (TaskId i = 0; i + 1 < n; ++i) add_pair(e, i, i + 1, w);
  return graph::CommGraph::from_edges(n, e);
}

inline graph::CommGraph star_graph(TaskId n, double w = 1) {
  std::vector<graph::Edge> e;
  for (TaskId i = 1; i < n; ++i) add_pair(e, 0, i, w);
  return graph::CommGraph::from_edges(n, e);
}

inline graph::CommGraph complete_graph(TaskId n, double w = 1) {
  std::vector<graph::Edge> e;
  for (TaskId i = 0; i < n; ++i)
    for (TaskId j = 0; j < n; ++j)
      if (i != j) e.push_back({i, j, w});
  return graph::CommGraph::from_edges(n, e);
}

/// A 2D grid graph rows x cols (non-periodic), task = r * cols + c.
inline graph::CommGraph grid_graph(TaskId rows, TaskId cols, double w = 1) {
  std::vector<graph::Edge> e;
  for (TaskId r = 0; r < rows; ++r)
    for (TaskId c = 0; c < cols; ++c) {
      if (c + 1 < cols) add_pair(e, r * cols + c, r * cols + c + 1, w);
      if (r + 1 < rows) add_pair(e, r * cols + c, (r + 1) * cols + c, w);
    }
  return graph::CommGraph::from_edges(rows * cols, e);
}

/// A ring of n tasks, w bytes each way between i and i+1 (mod n).
inline graph::CommGraph ring_graph(TaskId n, double w = 1) {
  return graph::make_pattern({.name = "ring", .dims = {}, .ranks = n, .bytes = w});
}

/// `cliques` cliques of `size` tasks, `heavy` bytes each way inside, joined in a ring by one `light`
/// edge (each way) from member 0 of every clique to member 1 of the next. Member i of clique c is
/// task c * size + i, or i * cliques + c when `interleaved`.
inline graph::CommGraph clique_ring(int cliques, int size, double heavy, double light, bool interleaved) {
  const auto task = [&](int c, int i) { return interleaved ? i * cliques + c : c * size + i; };
  std::vector<graph::Edge> e;
  for (int c = 0; c < cliques; ++c) {
    for (int i = 0; i < size; ++i)
      for (int j = i + 1; j < size; ++j) add_pair(e, task(c, i), task(c, j), heavy);
    add_pair(e, task(c, 0), task((c + 1) % cliques, 1), light);
  }
  return graph::CommGraph::from_edges(cliques * size, e);
}

/// A nearest-neighbour stencil (stencil2d or stencil3d) on a row-major task grid, w bytes each
/// way along every grid link; `periodic` wraps every dimension around.
inline graph::CommGraph stencil_graph(const std::vector<int>& extents, bool periodic, double w = 1) {
  return graph::make_pattern({.name = extents.size() == 2 ? "stencil2d" : "stencil3d",
                              .dims = extents,
                              .ranks = 0,
                              .bytes = w,
                              .periodic = periodic});
}

/// A directed random graph with about `avg_degree` out-edges per task and integer weights 1..100.
inline graph::CommGraph random_graph(TaskId n, int avg_degree, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<TaskId> task(0, n - 1);
  std::uniform_int_distribution<int> weight(1, 100);
  std::vector<graph::Edge> e;
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(n) * avg_degree; ++k) e.push_back({task(rng), task(rng), double(weight(rng))});
  return graph::CommGraph::from_edges(n, e);
}

/// A random permutation of 0..n-1.
inline std::vector<SlotId> random_permutation(SlotId n, std::uint64_t seed) {
  std::vector<SlotId> p(static_cast<std::size_t>(n));
  for (SlotId i = 0; i < n; ++i) p[i] = i;
  std::mt19937_64 rng(seed);
  std::shuffle(p.begin(), p.end(), rng);
  return p;
}

/// A small NAS-BT-like sweep on q x q tasks, rank = j q + i: phase k sends 100 bytes from every task
/// to its successor along x (i+1, j), y (i, j+1) and z (i-1, j+1), all modulo q.
inline std::vector<graph::CommGraph> sweep_phases(TaskId q) {
  const auto rank = [q](TaskId i, TaskId j) { return ((j + q) % q) * q + (i + q) % q; };
  std::vector<graph::CommGraph> phases;
  for (const auto& [di, dj] : {std::pair{1, 0}, std::pair{0, 1}, std::pair{-1, 1}}) {
    std::vector<graph::Edge> edges;
    for (TaskId j = 0; j < q; ++j)
      for (TaskId i = 0; i < q; ++i) edges.push_back({rank(i, j), rank(i + di, j + dj), 100.0});
    phases.push_back(graph::CommGraph::from_edges(q * q, std::move(edges)));
  }
  return phases;
}

/// The phases' edges summed into one graph.
inline graph::CommGraph summed_phases(const std::vector<graph::CommGraph>& phases) {
  std::vector<graph::Edge> all;
  for (const graph::CommGraph& phase : phases)
    for (TaskId a = 0; a < phase.num_tasks(); ++a) {
      const auto targets = phase.out_neighbors(a);
      const auto bytes = phase.out_weights(a);
      for (std::size_t k = 0; k < targets.size(); ++k) all.push_back({a, targets[k], bytes[k]});
    }
  return graph::CommGraph::from_edges(phases.empty() ? 0 : phases.front().num_tasks(), std::move(all));
}

}  // namespace rankmap::testing
