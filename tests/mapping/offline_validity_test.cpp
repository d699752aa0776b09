// The offline mappers (scotch, and chains through grasp) return permutations on awkward instances: P = 1,
// 2, primes, ppn > 1, partly filled nodes, disconnected allocations, mixed torus/mesh grids.
#include "factories.hpp"

#include <rankmap/mapping/offline.hpp>

#include <gtest/gtest.h>

#include <string>

namespace rankmap::mapping {
namespace {

using topology::Allocation;
using topology::Grid;

struct Instance {
  std::string name;
  graph::CommGraph graph;
  Allocation alloc;
};

/// Nodes of a grid chosen at random (seeded), in random order: fragmented, often disconnected.
Allocation scattered(const Grid& grid, int nodes, int ppn, SlotId slots, std::uint64_t seed) {
  const auto order = testing::random_permutation(static_cast<SlotId>(grid.num_nodes()), seed);
  const std::vector<NodeId> chosen(order.begin(), order.begin() + nodes);
  return Allocation::of_nodes(grid, chosen, ppn).first_slots(slots);
}

std::vector<Instance> instances() {
  const Grid torus = Grid::parse("torus:4x4x4");
  const Grid mixed = Grid::parse("grid:6x5x2:torus=100");
  std::vector<Instance> all;
  all.push_back({"P1", testing::path_graph(1), Allocation::full(Grid::parse("torus:1"), 1)});
  all.push_back({"P1-of-many", testing::path_graph(1), scattered(torus, 3, 2, 1, 1)});
  all.push_back({"P2", testing::path_graph(2), scattered(torus, 2, 1, 2, 2)});
  all.push_back({"P2-one-node", testing::path_graph(2), scattered(torus, 1, 2, 2, 3)});
  all.push_back({"prime13-ppn1", testing::random_graph(13, 3, 4), scattered(torus, 13, 1, 13, 4)});
  all.push_back({"prime31-ppn4", testing::random_graph(31, 4, 5), scattered(torus, 8, 4, 31, 5)});
  all.push_back({"prime37-mixed", testing::random_graph(37, 2, 6), scattered(mixed, 20, 2, 37, 6)});
  all.push_back({"grid-6x6-ppn3", testing::grid_graph(6, 6), scattered(torus, 12, 3, 36, 7)});
  all.push_back({"star-50", testing::star_graph(50), scattered(mixed, 25, 2, 50, 8)});
  all.push_back({"no-edges", graph::CommGraph::from_edges(17, {}), scattered(torus, 9, 2, 17, 9)});
  all.push_back({"complete-24", testing::complete_graph(24), Allocation::full(Grid::parse("mesh:2x3"), 4)});
  all.push_back({"random-64-full", testing::random_graph(64, 5, 10), Allocation::full(torus, 1)});
  all.push_back({"mixed-full-ppn2", testing::random_graph(18, 3, 11), Allocation::full(Grid::parse("grid:3x3:torus=01"), 2)});
  return all;
}

class OfflineValidity : public ::testing::TestWithParam<const char*> {};

TEST_P(OfflineValidity, ReturnsAPermutationOnEveryInstance) {
  for (const Instance& instance : instances()) {
    MapOptions options;
    options.time_budget_ms = 20;
    const Mapping m = run_chain(GetParam(), all_algorithms(), instance.graph, instance.alloc, options);
    EXPECT_EQ(static_cast<TaskId>(m.size()), instance.graph.num_tasks()) << instance.name;
    EXPECT_TRUE(is_permutation(m)) << instance.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Offline, OfflineValidity,
                         ::testing::Values("scotch", "scotch:quality", "scotch:speed", "split+grasp:1", "hilbert+grasp:2"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace rankmap::mapping
