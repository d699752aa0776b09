// Cube problems built from real 2x...x2 grids, so that answers can be checked with the core metrics.
#pragma once

#include "rahtm/cube_problem.hpp"

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/topology/allocation.hpp>
#include <rankmap/topology/routing.hpp>

#include <random>
#include <string>
#include <vector>

namespace rankmap::rahtm::testing {

/// A 2-ary n-cube as a grid: `mesh:2x..x2` or `torus:2x..x2` (capacity 2 per channel).
/// Cube bit i is grid dimension i, so vertex u is the node with coordinate (u >> i) & 1 in dim i.
inline topology::Grid cube_grid(int dims, bool torus) {
  std::string spec = torus ? "torus:" : "mesh:";
  for (int i = 0; i < dims; ++i) spec += i ? "x2" : "2";
  return topology::Grid::parse(spec);
}

inline NodeId node_of_vertex(const topology::Grid& grid, int u) {
  NodeId node = 0;
  for (int i = 0; i < grid.ndims(); ++i) node += ((u >> i) & 1) * grid.stride(i);
  return node;
}

/// `active` clusters exchange random traffic (each ordered pair with probability `density`,
/// integer weights 1..20); the other clusters of the 2^dims are silent.
inline CubeProblem random_cube_problem(int dims, bool torus, int active, double density, std::uint64_t seed) {
  CubeProblem p;
  p.dims = dims;
  const int n = 1 << dims;
  p.capacity.assign(static_cast<std::size_t>(dims) * n, torus ? 2.0 : 1.0);
  p.vertex_size.assign(n, 1);
  p.cluster_size.assign(n, 1);
  p.traffic.assign(static_cast<std::size_t>(n) * n, 0.0);
  std::mt19937_64 rng(seed);
  for (int a = 0; a < active; ++a)
    for (int b = 0; b < active; ++b)
      if (a != b && std::uniform_real_distribution<double>(0, 1)(rng) < density)
        p.traffic[a * n + b] = static_cast<double>(1 + rng() % 20);
  return p;
}

/// The problem's traffic as a task graph (task = cluster).
inline graph::CommGraph cluster_graph(const CubeProblem& p) {
  std::vector<graph::Edge> edges;
  for (int a = 0; a < p.num_clusters(); ++a)
    for (int b = 0; b < p.num_clusters(); ++b)
      if (p.weight(a, b) > 0) edges.push_back({a, b, p.weight(a, b)});
  return graph::CommGraph::from_edges(p.num_clusters(), edges);
}

/// The MCL of a placement measured by the core metrics under `adaptive` routing on the grid.
inline double core_mcl(const CubeProblem& p, const topology::Grid& grid, const std::vector<int>& vertex_of) {
  const auto alloc = topology::Allocation::full(grid, 1);
  const auto routing = topology::make_routing_model(grid, "adaptive");
  std::vector<SlotId> slot_of(vertex_of.size());
  for (std::size_t a = 0; a < vertex_of.size(); ++a) slot_of[a] = static_cast<SlotId>(node_of_vertex(grid, vertex_of[a]));
  return metrics::max_channel_load(cluster_graph(p), alloc, slot_of, *routing);
}

}  // namespace rankmap::rahtm::testing
