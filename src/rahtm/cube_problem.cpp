// Even-split routes on 2-ary n-cubes and the exact MCL of a cube placement.
#include "cube_problem.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <mutex>
#include <stdexcept>
#include <string>

namespace rankmap::rahtm {

namespace {

/// Every route of one cube size, flattened: the shares of u -> v are
/// shares[begin[u * N + v] .. begin[u * N + v + 1]).
struct CubeRouteTable {
  std::vector<std::size_t> begin;
  std::vector<CubeShare> shares;
};

double factorial(int k) {
  double f = 1;
  for (int i = 2; i <= k; ++i) f *= i;
  return f;
}

CubeRouteTable build_routes(int dims) {
  const int n = 1 << dims;
  CubeRouteTable table;
  table.begin.reserve(static_cast<std::size_t>(n) * n + 1);
  for (int u = 0; u < n; ++u)
    for (int v = 0; v < n; ++v) {
      table.begin.push_back(table.shares.size());
      const int differ = u ^ v;
      const int h = std::popcount(static_cast<unsigned>(differ));
      // Enumerate the subsets S of the differing dimensions already corrected, then every
      // dimension i still to correct: the channel (u ^ S, i).
      for (int s = differ;; s = (s - 1) & differ) {
        const int k = std::popcount(static_cast<unsigned>(s));
        if (k < h) {
          const double fraction = factorial(k) * factorial(h - 1 - k) / factorial(h);
          for (int i = 0; i < dims; ++i)
            if ((differ >> i & 1) && !(s >> i & 1)) table.shares.push_back({(u ^ s) * dims + i, fraction});
        }
        if (s == 0) break;
      }
    }
  table.begin.push_back(table.shares.size());
  return table;
}

const CubeRouteTable& routes(int dims) {
  static std::array<std::once_flag, kMaxCubeDims + 1> once;
  static std::array<CubeRouteTable, kMaxCubeDims + 1> tables;
  std::call_once(once[dims], [dims] { tables[dims] = build_routes(dims); });
  return tables[dims];
}

}  // namespace

std::span<const CubeShare> cube_route(int dims, int u, int v) {
  if (dims < 0 || dims > kMaxCubeDims) throw std::invalid_argument("cube_route: dims out of range");
  const CubeRouteTable& t = routes(dims);
  const std::size_t key = static_cast<std::size_t>(u) * (std::size_t{1} << dims) + v;
  return {t.shares.data() + t.begin[key], t.begin[key + 1] - t.begin[key]};
}

std::vector<double> cube_loads(const CubeProblem& problem, std::span<const int> vertex_of) {
  std::vector<double> loads(static_cast<std::size_t>(problem.num_channels()), 0.0);
  const int k = problem.num_clusters();
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b) {
      const double w = problem.weight(a, b);
      if (a == b || w == 0) continue;
      for (const CubeShare& s : cube_route(problem.dims, vertex_of[a], vertex_of[b]))
        loads[s.channel] += w * s.fraction / problem.capacity[s.channel];
    }
  return loads;
}

double cube_mcl(const CubeProblem& problem, std::span<const int> vertex_of) {
  const std::vector<double> loads = cube_loads(problem, vertex_of);
  return loads.empty() ? 0.0 : *std::max_element(loads.begin(), loads.end());
}

void check_cube_problem(const CubeProblem& p) {
  if (p.dims < 0 || p.dims > kMaxCubeDims)
    throw std::invalid_argument("cube problem: " + std::to_string(p.dims) + " dimensions, at most " +
                                std::to_string(kMaxCubeDims));
  const int k = p.num_clusters();
  if (static_cast<int>(p.capacity.size()) != p.num_channels() ||
      static_cast<int>(p.vertex_size.size()) != p.num_vertices() ||
      p.traffic.size() != static_cast<std::size_t>(k) * k)
    throw std::invalid_argument("cube problem: array sizes do not match the cube");
  for (double c : p.capacity)
    if (!(c > 0) || !std::isfinite(c)) throw std::invalid_argument("cube problem: a capacity is not positive");
  for (double w : p.traffic)
    if (!(w >= 0) || !std::isfinite(w)) throw std::invalid_argument("cube problem: a traffic entry is not finite");
  std::vector<std::int64_t> vertices, clusters;
  for (auto s : p.vertex_size)
    if (s > 0) vertices.push_back(s);
  clusters = p.cluster_size;
  std::sort(vertices.begin(), vertices.end());
  std::sort(clusters.begin(), clusters.end());
  if (vertices != clusters) throw std::invalid_argument("cube problem: cluster sizes do not match vertex sizes");
}

bool is_vertex_transitive(const CubeProblem& p) {
  for (int u = 0; u < p.num_vertices(); ++u) {
    if (p.vertex_size[u] != p.vertex_size[0]) return false;
    for (int i = 0; i < p.dims; ++i)
      if (p.capacity[u * p.dims + i] != p.capacity[i]) return false;
  }
  return true;
}

}  // namespace rankmap::rahtm
