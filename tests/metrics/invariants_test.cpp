// Properties every routing model must have, checked on random graphs, grids and mappings.
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>
#include <rankmap/metrics/lower_bound.hpp>
#include <rankmap/metrics/node_flows.hpp>

#include "factories.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

namespace rankmap::metrics {
namespace {

using topology::Allocation;
using topology::Grid;

const char* const kGrids[] = {"torus:7",         "mesh:5",          "torus:4x6",          "grid:3x4:torus=01",
                              "torus:4x4x4",     "mesh:3x2x4",      "torus:2x4x3x2",      "grid:4x2x3x2:torus=1010",
                              "torus:4x4x4x4x2", "mesh:2x3x2x2x3",  "grid:6x2x4x3x2:torus=11101"};
const char* const kRoutings[] = {"dor", "adaptive", "adaptive-hop"};

double weighted_sum(const Grid& g, const std::vector<double>& loads) {
  double sum = 0;
  for (ChannelId c = 0; c < g.num_channel_slots(); ++c) {
    if (!g.has_channel(c)) {
      EXPECT_EQ(loads[c], 0.0) << "load on a channel that does not exist";
    }
    sum += loads[c] * g.capacity(g.channel_dim(c));
  }
  return sum;
}

TEST(Invariants, LoadTimesCapacitySumsToHopBytes) {
  int seed = 0;
  for (const char* spec : kGrids) {
    const Grid g = Grid::parse(spec);
    for (int ppn : {1, 2}) {
      const Allocation a = Allocation::full(g, ppn);
      const auto graph = testing::random_graph(a.num_slots(), 3, ++seed);
      const auto m = testing::random_permutation(a.num_slots(), seed);
      const double hb = hop_bytes(graph, a, m);
      for (const char* r : kRoutings) {
        const auto loads = channel_loads(graph, a, m, *topology::make_routing_model(g, r));
        EXPECT_NEAR(weighted_sum(g, loads), hb, 1e-9 * hb) << spec << " " << r << " ppn " << ppn;
      }
    }
  }
}

// Rows that reach few nodes are sorted, rows that reach many are scanned: both must give every
// node pair's bytes once, in the order of the nodes' indices in the allocation.
TEST(Invariants, NodeFlowsSumEachNodePairOnceInAllocationOrder) {
  const Grid g = Grid::parse("torus:4x4x4");
  const Allocation a = Allocation::full(g, 2);
  for (int degree : {1, 40}) {
    const auto graph = testing::random_graph(a.num_slots(), degree, 5 + degree);
    const auto m = testing::random_permutation(a.num_slots(), 7);
    std::map<std::pair<int, int>, double> expected;
    for (TaskId t = 0; t < graph.num_tasks(); ++t) {
      const auto targets = graph.out_neighbors(t);
      const auto weights = graph.out_weights(t);
      for (std::size_t k = 0; k < targets.size(); ++k) {
        const int src = a.node_index_of_slot(m[t]), dst = a.node_index_of_slot(m[targets[k]]);
        if (src != dst) expected[{src, dst}] += weights[k];
      }
    }
    const auto flows = node_flows(graph, a, m);
    ASSERT_EQ(flows.size(), expected.size()) << "degree " << degree;
    std::size_t i = 0;
    for (const auto& [pair, bytes] : expected) {
      EXPECT_EQ(flows[i].src, a.node(pair.first)) << "degree " << degree << ", flow " << i;
      EXPECT_EQ(flows[i].dst, a.node(pair.second)) << "degree " << degree << ", flow " << i;
      EXPECT_EQ(flows[i].bytes, bytes) << "degree " << degree << ", flow " << i;
      ++i;
    }
  }
}

TEST(Invariants, NodeFlowsThatMayStopAreTheSameWhenNotStopped) {
  const Allocation a = Allocation::full(Grid::parse("torus:4x4x4"), 2);
  const auto graph = testing::random_graph(a.num_slots(), 8, 11);
  const auto m = testing::random_permutation(a.num_slots(), 11);
  const auto flows = node_flows(graph, a, m);
  const auto unstopped = node_flows(graph, a, m, [] { return false; });
  ASSERT_TRUE(unstopped.has_value());
  ASSERT_EQ(unstopped->size(), flows.size());
  for (std::size_t i = 0; i < flows.size(); ++i) {
    EXPECT_EQ((*unstopped)[i].src, flows[i].src);
    EXPECT_EQ((*unstopped)[i].dst, flows[i].dst);
    EXPECT_EQ((*unstopped)[i].bytes, flows[i].bytes);
  }
  int asked = 0;
  EXPECT_FALSE(node_flows(graph, a, m, [&asked] { return ++asked > 5; }).has_value());
  EXPECT_EQ(asked, 6) << "asked once per node until told to stop";
}

TEST(Invariants, LoadsThatMayStopEarlyAreTheSameWhenNotStopped) {
  const Grid g = Grid::parse("torus:4x4x4");
  const Allocation a = Allocation::full(g, 2);
  const auto graph = testing::random_graph(a.num_slots(), 8, 11);
  const auto flows = node_flows(graph, a, testing::random_permutation(a.num_slots(), 11));
  ASSERT_GT(flows.size(), 256u);  // so that a stop can come between flows
  for (const char* r : kRoutings) {
    const auto model = topology::make_routing_model(g, r);
    int asked = 0;
    const auto loads = channel_loads(flows, *model, [&asked] { return ++asked > 1; });
    EXPECT_FALSE(loads.has_value()) << r << ": a stop asked for after the first flows was ignored";
    EXPECT_EQ(asked, 2) << r;
    const auto unstopped = channel_loads(flows, *model, [] { return false; });
    ASSERT_TRUE(unstopped.has_value()) << r;
    EXPECT_EQ(*unstopped, channel_loads(flows, *model)) << r;
  }
}

// Applies a grid automorphism to node coordinates: reflect dimensions, permute equal ones, translate tori.
NodeId transform(const Grid& g, NodeId n, const std::vector<int>& perm, const std::vector<bool>& reflect,
                 const std::vector<int>& shift) {
  const auto c = g.coords_of(n);
  std::vector<int> out(g.ndims());
  for (int d = 0; d < g.ndims(); ++d) {
    int v = c[perm[d]];
    if (reflect[d]) v = g.extent(d) - 1 - v;
    out[d] = (v + shift[d]) % g.extent(d);
  }
  return g.node_at(out);
}

std::vector<double> sorted_loads(const std::vector<double>& loads) {
  std::vector<double> s = loads;
  std::sort(s.begin(), s.end());
  return s;
}

TEST(Invariants, AdaptiveLoadsAreSymmetricUnderGridAutomorphisms) {
  std::mt19937_64 rng(42);
  for (const char* spec : {"torus:6", "torus:4x4", "torus:4x4x4", "mesh:3x3x3", "torus:4x4x4x4x2", "torus:4x4x4x4x4"}) {
    const Grid g = Grid::parse(spec);
    const Allocation a = Allocation::full(g, 1);
    const auto graph = testing::random_graph(a.num_slots(), 2, rng());
    const auto m = testing::random_permutation(a.num_slots(), rng());
    std::vector<int> perm(g.ndims());
    std::iota(perm.begin(), perm.end(), 0);
    for (int trial = 0; trial < 3; ++trial) {
      // Permute only dimensions of equal extent and kind, reflect any, translate only tori.
      std::vector<int> p = perm;
      for (int i = 0; i + 1 < g.ndims(); ++i)
        if (g.extent(i) == g.extent(i + 1) && g.is_torus(i) == g.is_torus(i + 1) && rng() % 2) std::swap(p[i], p[i + 1]);
      std::vector<bool> reflect(g.ndims());
      std::vector<int> shift(g.ndims(), 0);
      for (int d = 0; d < g.ndims(); ++d) {
        reflect[d] = rng() % 2;
        if (g.is_torus(d)) shift[d] = static_cast<int>(rng() % g.extent(d));
      }
      // Moving every slot's node by the automorphism is a new allocation with the same structure.
      std::vector<NodeId> moved(a.num_slots());
      for (SlotId s = 0; s < a.num_slots(); ++s) moved[s] = transform(g, a.node_of_slot(s), p, reflect, shift);
      const Allocation b(g, moved);
      for (const char* r : {"adaptive", "adaptive-hop"}) {
        const auto model = topology::make_routing_model(g, r);
        const auto before = sorted_loads(channel_loads(graph, a, m, *model));
        const auto after = sorted_loads(channel_loads(graph, b, m, *model));
        ASSERT_EQ(before.size(), after.size());
        for (std::size_t i = 0; i < before.size(); ++i)
          ASSERT_NEAR(before[i], after[i], 1e-9 * (1 + before[i])) << spec << " " << r << " trial " << trial;
      }
    }
  }
}

TEST(Invariants, EverythingOnOneNodeLoadsNoChannel) {
  for (const char* spec : {"torus:4x4", "mesh:2x3x2"}) {
    const Grid g = Grid::parse(spec);
    const Allocation a = Allocation::full(g, 12).first_slots(12);
    const auto graph = testing::random_graph(12, 4, 3);
    const auto m = testing::random_permutation(12, 5);
    EXPECT_DOUBLE_EQ(hop_bytes(graph, a, m), 0);
    for (const char* r : kRoutings)
      EXPECT_DOUBLE_EQ(max_channel_load(graph, a, m, *topology::make_routing_model(g, r)), 0) << r;
  }
}

TEST(Invariants, LowerBoundNeverExceedsAnyMappingsMcl) {
  int seed = 100;
  for (const char* spec : {"torus:4x4", "mesh:3x3", "torus:2x2x2", "torus:4x4x4"}) {
    const Grid g = Grid::parse(spec);
    for (int ppn : {1, 2, 4}) {
      const Allocation a = Allocation::full(g, ppn);
      const auto graph = testing::random_graph(a.num_slots(), 3, ++seed);
      const double bound = mcl_lower_bound(graph, a);
      EXPECT_GT(bound, 0);
      for (int trial = 0; trial < 5; ++trial) {
        const auto m = testing::random_permutation(a.num_slots(), ++seed);
        for (const char* r : kRoutings)
          EXPECT_LE(bound, max_channel_load(graph, a, m, *topology::make_routing_model(g, r)) * (1 + 1e-12));
      }
    }
  }
}

}  // namespace
}  // namespace rankmap::metrics
