// The cube MILP against brute force: every placement scored by the core metrics.
#include "cube_fixtures.hpp"
#include "rahtm/cube_milp.hpp"
#include "rahtm/cube_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>

namespace rankmap::rahtm {
namespace {

using testing::core_mcl;
using testing::cube_grid;
using testing::random_cube_problem;

// The least core-metric MCL over every injective placement of the `active` first clusters.
// The cube is vertex-transitive (XOR by any vertex is an automorphism of mesh:2x..x2 and of
// torus:2x..x2), so cluster 0 is fixed on vertex 0 without losing any optimum.
double brute_force_mcl(const CubeProblem& p, const topology::Grid& grid, int active) {
  const int n = p.num_vertices();
  std::vector<int> vertex_of(p.num_clusters(), -1);
  std::vector<bool> used(n, false);
  double best = std::numeric_limits<double>::infinity();
  std::function<void(int)> place = [&](int a) {
    if (a == active) {
      std::vector<int> full = vertex_of;  // silent clusters take the free vertices
      int next = 0;
      for (int c = active; c < p.num_clusters(); ++c) {
        while (used[next]) ++next;
        full[c] = next++;
      }
      best = std::min(best, core_mcl(p, grid, full));
      return;
    }
    for (int v = 0; v < n; ++v) {
      if (used[v] || (a == 0 && v != 0)) continue;
      used[v] = true, vertex_of[a] = v;
      place(a + 1);
      used[v] = false;
    }
  };
  place(0);
  return best;
}

struct Instance {
  int dims;
  bool torus;
  int active;
  double density;
};

class CubeMilpBruteForce : public ::testing::TestWithParam<Instance> {};

TEST_P(CubeMilpBruteForce, ProvesTheOptimumOfRandomGraphs) {
  const Instance in = GetParam();
  const topology::Grid grid = cube_grid(in.dims, in.torus);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const CubeProblem p = random_cube_problem(in.dims, in.torus, in.active, in.density, seed);
    const CubePlacement milp = solve_cube_milp(p, ordered_placement(p), CubeMilpOptions{});
    EXPECT_TRUE(milp.proven_optimal) << "seed " << seed;
    const double best = brute_force_mcl(p, grid, in.active);
    EXPECT_NEAR(milp.mcl, best, 1e-9 * best) << "seed " << seed;
    // The MILP's own placement, measured by the core metrics, reaches the optimum too.
    EXPECT_NEAR(core_mcl(p, grid, milp.vertex_of), best, 1e-9 * best) << "seed " << seed;
  }
}

INSTANTIATE_TEST_SUITE_P(Cubes, CubeMilpBruteForce,
                         ::testing::Values(Instance{2, false, 4, 0.7}, Instance{2, true, 4, 0.7},
                                           Instance{3, false, 5, 0.6}, Instance{3, true, 5, 0.6},
                                           Instance{4, false, 4, 0.7}, Instance{4, true, 4, 0.7}),
                         [](const auto& info) {
                           return std::string(info.param.torus ? "torus" : "mesh") + std::to_string(info.param.dims) +
                                  "d_active" + std::to_string(info.param.active);
                         });

TEST(CubeMilp, RahtmTwoByTwoExamplePutsTheHeavyPairOnTheDiagonal) {
  // Clusters 0,1 exchange 3 bytes each way, 2,3 exchange 2, all other pairs 1 (the example in
  // tests/metrics/hand_computed_test.cpp): MCL 3.5 with the heavy pair on a diagonal, 4 otherwise.
  CubeProblem p;
  p.dims = 2;
  p.capacity.assign(8, 1.0);
  p.vertex_size.assign(4, 1);
  p.cluster_size.assign(4, 1);
  p.traffic.assign(16, 1.0);
  for (int a = 0; a < 4; ++a) p.traffic[a * 4 + a] = 0;
  p.traffic[0 * 4 + 1] = p.traffic[1 * 4 + 0] = 3;
  p.traffic[2 * 4 + 3] = p.traffic[3 * 4 + 2] = 2;
  const CubePlacement milp = solve_cube_milp(p, ordered_placement(p), CubeMilpOptions{});
  EXPECT_TRUE(milp.proven_optimal);
  EXPECT_DOUBLE_EQ(milp.mcl, 3.5);
  EXPECT_EQ(milp.vertex_of[0] ^ milp.vertex_of[1], 3);
}

TEST(CubeSearch, NeverWorseThanItsStartAndAgreesWithTheCoreMetrics) {
  const topology::Grid grid = cube_grid(4, false);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const CubeProblem p = random_cube_problem(4, false, 16, 0.3, seed);
    const std::vector<int> start = ordered_placement(p);
    const CubePlacement found = search_cube(p, start, CubeSearchOptions{50, seed});
    EXPECT_LE(found.mcl, cube_mcl(p, start) * (1 + 1e-12));
    EXPECT_NEAR(found.mcl, core_mcl(p, grid, found.vertex_of), 1e-9 * found.mcl);
  }
}

}  // namespace
}  // namespace rankmap::rahtm
