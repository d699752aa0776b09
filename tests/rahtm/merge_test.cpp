// The beam merge: exact incremental MCL, never worse than one orientation for every child.
#include "rahtm/merge_beam.hpp"

#include <rankmap/metrics/channel_load.hpp>

#include <gtest/gtest.h>

#include <random>

namespace rankmap::rahtm {
namespace {

using topology::Grid;

// torus:4x4x2 cut into four 2x2x2 children (dims 0 and 1 halved); random flows between and
// inside them, with random byte counts.
struct Instance {
  Grid grid = Grid::parse("torus:4x4x2");
  std::vector<MergeChild> children;
  std::vector<MergeFlow> flows;
};

Instance random_instance(std::uint64_t seed, int num_flows) {
  Instance in;
  for (int v = 0; v < 4; ++v) {
    MergeChild c;
    c.box.lo = {2 * (v & 1), 2 * (v >> 1), 0};
    c.box.len = {2, 2, 2};
    for (int cell = 0; cell < 8; ++cell) {
      const topology::Coords coords = coords_of_cell(c.box, 3, cell);
      c.node_of_cell.push_back(in.grid.node_at(std::span<const int>(coords.data(), 3)));
    }
    const auto all = box_orientations(c.box, in.grid, 1000);
    for (std::size_t e = 0; e < all.size(); ++e) {
      c.orientation_index.push_back(static_cast<int>(e));
      c.cell_image.push_back(cell_permutation(c.box, 3, all[e]));
    }
    in.children.push_back(std::move(c));
  }
  std::mt19937_64 rng(seed);
  for (int k = 0; k < num_flows; ++k) {
    MergeFlow f{static_cast<int>(rng() % 4), static_cast<int>(rng() % 8), static_cast<int>(rng() % 4),
                static_cast<int>(rng() % 8), static_cast<double>(1 + rng() % 9)};
    if (f.src_child != f.dst_child || f.src_cell != f.dst_cell) in.flows.push_back(f);
  }
  return in;
}

// MCL of the flows with every child in the given orientation entry, routed from scratch.
double mcl_of(const Instance& in, const std::vector<int>& choice, const topology::RoutingModel& routing) {
  std::vector<double> loads(static_cast<std::size_t>(in.grid.num_channel_slots()), 0.0);
  for (const MergeFlow& f : in.flows) {
    const MergeChild& s = in.children[f.src_child];
    const MergeChild& d = in.children[f.dst_child];
    routing.add_flow(s.node_of_cell[s.cell_image[choice[f.src_child]][f.src_cell]],
                     d.node_of_cell[d.cell_image[choice[f.dst_child]][f.dst_cell]], f.bytes, loads);
  }
  return metrics::max_channel_load(loads);
}

TEST(Merge, NeverWorseThanTheBestSingleOrientationAndExact) {
  const Instance probe = random_instance(0, 0);
  const auto routing = topology::make_routing_model(probe.grid, "adaptive");
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Instance in = random_instance(seed, 60);
    for (int beam : {1, 4, 64}) {
      const BeamResult r = merge_children(in.children, in.flows, *routing, {beam, 2, {}});
      double best_single = 1e300;
      for (std::size_t e = 0; e < in.children[0].cell_image.size(); ++e)
        best_single = std::min(best_single, mcl_of(in, std::vector<int>(4, static_cast<int>(e)), *routing));
      EXPECT_LE(r.mcl, best_single * (1 + 1e-12)) << "seed " << seed << " beam " << beam;
      // The incremental score is the MCL of the orientations it returns.
      EXPECT_NEAR(r.mcl, mcl_of(in, r.orientation, *routing), 1e-9 * r.mcl);
    }
  }
}

TEST(Merge, APassedDeadlineLeavesEveryChildAsItIs) {
  const Instance in = random_instance(3, 60);
  const auto routing = topology::make_routing_model(in.grid, "adaptive");
  const mapping::Deadline passed(0);
  const BeamResult r = merge_children(in.children, in.flows, *routing, {8, 2, {}, nullptr, &passed});
  EXPECT_TRUE(r.cut);
  EXPECT_EQ(r.orientation, std::vector<int>(4, 0));
  const mapping::Deadline ample(1e9);
  EXPECT_FALSE(merge_children(in.children, in.flows, *routing, {8, 2, {}, nullptr, &ample}).cut);
}

TEST(Merge, ABeamAsWideAsTheSearchSpaceFindsTheOptimum) {
  // Each 2x2x2 child of torus:4x4x2 has 16 orientations (dims 0 and 1 are sub-rings and may be
  // exchanged, dim 2 is a whole ring of 2; all three reflect), so 16^3 partial solutions fit a
  // beam of 4096 and nothing is dropped: the merge must match brute force over all 16^4.
  const Instance probe = random_instance(0, 0);
  const auto routing = topology::make_routing_model(probe.grid, "adaptive");
  ASSERT_EQ(probe.children[0].cell_image.size(), 16u);
  for (std::uint64_t seed = 21; seed <= 22; ++seed) {
    const Instance in = random_instance(seed, 24);
    double best = 1e300;
    for (int combo = 0; combo < 1 << 16; ++combo)
      best = std::min(best, mcl_of(in, {combo & 15, combo >> 4 & 15, combo >> 8 & 15, combo >> 12}, *routing));
    EXPECT_NEAR(merge_children(in.children, in.flows, *routing, {4096, 2, {}}).mcl, best, 1e-9 * best) << "seed " << seed;
  }
}

TEST(Merge, OrderStartsWithTheChildThatTalksMost) {
  // Only children 2 and 3 exchange traffic: they come first, in index order.
  Instance in = random_instance(0, 0);
  in.flows = {{2, 0, 3, 0, 5}, {3, 1, 2, 4, 5}};
  const auto routing = topology::make_routing_model(in.grid, "adaptive");
  const std::vector<int> order = merge_order(in.children, in.flows, *routing);
  EXPECT_EQ(order, (std::vector<int>{2, 3, 0, 1}));
}

}  // namespace
}  // namespace rankmap::rahtm
