// One level of RAHTM: clusters to place on the vertices of a 2-ary n-cube, and its exact MCL.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace rankmap::rahtm {

/// The largest cube a level may use; 2^6 vertices already make a MILP too large for CBC.
inline constexpr int kMaxCubeDims = 6;

/// Place clusters on the vertices of a 2-ary n-cube, minimising the maximum channel load.
///
/// Vertex u is a child box of a block; channel (u, i) joins u to u ^ (1 << i) and stands for
/// all the grid links between the two boxes, so its capacity is their summed capacity (this is
/// how a 2-ary torus dimension at the root becomes a mesh with double-wide links). Traffic
/// follows the `adaptive` model: split evenly over all minimal paths, that is over all orders
/// in which the differing dimensions can be corrected.
struct CubeProblem {
  int dims = 0;
  std::vector<double> capacity;            ///< capacity[u * dims + i] > 0
  std::vector<std::int64_t> vertex_size;   ///< slots under vertex u; 0 means nothing may go there
  std::vector<std::int64_t> cluster_size;  ///< a cluster only goes on a vertex of the same size
  std::vector<double> traffic;             ///< traffic[a * num_clusters() + b]: bytes from a to b

  int num_vertices() const { return 1 << dims; }
  int num_clusters() const { return static_cast<int>(cluster_size.size()); }
  int num_channels() const { return dims << dims; }
  double weight(int a, int b) const { return traffic[static_cast<std::size_t>(a) * num_clusters() + b]; }
  bool compatible(int cluster, int vertex) const { return cluster_size[cluster] == vertex_size[vertex]; }
};

/// A placement of a cube problem: vertex_of[cluster], distinct vertices.
struct CubePlacement {
  std::vector<int> vertex_of;
  double mcl = 0;
  bool proven_optimal = false;
};

/// The share of a flow that crosses one cube channel.
struct CubeShare {
  int channel;  ///< u * dims + i
  double fraction;
};

/// The channels of the flow u -> v in an n-cube under even splitting over minimal paths.
/// The channel leaving s across dimension i carries |S|! (h-1-|S|)! / h! of the flow when
/// s = u ^ S for a set S of the h differing dimensions that excludes i.
std::span<const CubeShare> cube_route(int dims, int u, int v);

/// Channel loads (bytes / capacity) of a complete placement.
std::vector<double> cube_loads(const CubeProblem& problem, std::span<const int> vertex_of);
double cube_mcl(const CubeProblem& problem, std::span<const int> vertex_of);

/// Throws std::invalid_argument unless the sizes fit: as many vertices as clusters of every size,
/// capacities positive, traffic finite and non-negative.
void check_cube_problem(const CubeProblem& problem);

/// True if every translation of the cube is an automorphism of the problem: capacities depend on
/// the dimension only and every vertex takes every cluster.
bool is_vertex_transitive(const CubeProblem& problem);

}  // namespace rankmap::rahtm
