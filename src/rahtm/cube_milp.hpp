// The exact cube-level mapping MILP of RAHTM, solved with COIN-OR CBC.
#pragma once

#include "cube_problem.hpp"

#include <span>

namespace rankmap::rahtm {

struct CubeMilpOptions {
  /// Branch-and-bound nodes CBC may explore. A node limit, unlike a time limit, keeps the
  /// result independent of the machine's speed and load.
  int max_nodes = 20000;
  /// A safety net only, in wall-clock seconds: when it stops a search the result can depend on timing.
  double max_seconds = 30;
};

/// Columns of the MILP of a problem: x for every (cluster with traffic, vertex of its size), z for
/// every pair of clusters with traffic and every ordered pair of distinct vertices, and L.
std::int64_t cube_milp_columns(const CubeProblem& problem);

/// Minimises the MCL of a cube problem exactly:
///   - x[a][v] binary: cluster a on vertex v; every cluster on one vertex, every vertex at most one cluster;
///   - z[a,b][u][v] in [0,1]: the pair (a, b) sits on (u, v), with sum_v z = x[a][u] and sum_u z = x[b][v],
///     which makes z the product x[a][u] x[b][v] at every integer point;
///   - each channel's load is the sum over pairs of the even-split route shares (the flow of every
///     pair along all its minimal paths, which is the flow conservation of the minimal-routing model
///     solved in closed form), and must stay below L times the channel's capacity; minimise L.
/// Only clusters that exchange traffic get variables; the others fill the free vertices afterwards.
/// When the problem is vertex-transitive, the busiest cluster is fixed on vertex 0 and its heaviest
/// partner on one representative vertex per orbit of the remaining symmetries.
/// `incumbent` (a feasible placement) starts the search; the result is never worse than it.
CubePlacement solve_cube_milp(const CubeProblem& problem, std::span<const int> incumbent,
                              const CubeMilpOptions& options);

}  // namespace rankmap::rahtm
