// Tests of the Gilmore-Lawler bound: below every mapping, tight where the optimum is obvious.
#include "factories.hpp"

#include <rankmap/metrics/hop_bytes.hpp>
#include <rankmap/metrics/qap_bound.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace rankmap::metrics {
namespace {

using topology::Allocation;
using topology::Grid;

TEST(GilmoreLawler, EqualsTheOptimumOfAStarOnAPlusShapedAllocation) {
  // Star of 5 tasks on the plus-shaped allocation (centre and its 4 neighbours) of mesh:3x3. The
  // optimum puts the centre task on the centre node: 4 edges x 2 directions x 1 hop = 8. The bound:
  // the centre task has 4 flows of 1 (w + w^T = 2, halved), best placed where 4 slots are 1 hop
  // away: 4; each leaf has one flow of 1 at least 1 hop away: 4 x 1. Total 8.
  const Grid grid = Grid::parse("mesh:3x3");
  const std::vector<NodeId> plus = {4, 1, 3, 5, 7};
  const Allocation alloc = Allocation::of_nodes(grid, plus, 1);
  const auto graph = testing::star_graph(5);
  EXPECT_DOUBLE_EQ(gilmore_lawler_bound(graph, alloc), 8);
  EXPECT_DOUBLE_EQ(hop_bytes(graph, alloc, std::vector<SlotId>{0, 1, 2, 3, 4}), 8);
}

TEST(GilmoreLawler, IsZeroWhenEverythingFitsOnOneNode) {
  const Allocation alloc = Allocation::of_nodes(Grid::parse("torus:4"), std::vector<NodeId>{2}, 6);
  EXPECT_DOUBLE_EQ(gilmore_lawler_bound(testing::complete_graph(6), alloc), 0);
}

TEST(GilmoreLawler, NeverExceedsTheOptimumOnRandomSmallInstances) {
  // 7 tasks: all 5040 mappings are enumerated, so the bound is compared with the true optimum.
  const Grid grid = Grid::parse("torus:4x4");
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const auto graph = testing::random_graph(7, 3, seed);
    const int ppn = seed % 2 ? 1 : 2;
    std::vector<NodeId> nodes;
    for (SlotId s = 0; s < (7 + ppn - 1) / ppn; ++s) nodes.push_back((s * 5 + seed) % 16);
    const Allocation alloc = Allocation::of_nodes(grid, nodes, ppn).first_slots(7);
    std::vector<SlotId> m(7);
    std::iota(m.begin(), m.end(), 0);
    double optimum = 1e300;
    do optimum = std::min(optimum, hop_bytes(graph, alloc, m));
    while (std::next_permutation(m.begin(), m.end()));
    const double bound = gilmore_lawler_bound(graph, alloc);
    EXPECT_LE(bound, optimum + 1e-9) << "seed " << seed;
    EXPECT_GT(bound, 0) << "seed " << seed;
  }
}

TEST(GilmoreLawler, RefusesMismatchedSizes) {
  const Allocation alloc = Allocation::full(Grid::parse("torus:4"), 1);
  EXPECT_THROW(gilmore_lawler_bound(testing::path_graph(5), alloc), InputError);
}

}  // namespace
}  // namespace rankmap::metrics
