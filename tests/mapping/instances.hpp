// Awkward instances every mapper must map to a permutation, shared by the core and offline validity tests.
#pragma once

#include "factories.hpp"

#include <rankmap/topology/allocation.hpp>

#include <string>
#include <vector>

namespace rankmap::testing {

struct Instance {
  std::string name;
  graph::CommGraph graph;
  topology::Allocation alloc;
};

/// `count` distinct random nodes of the grid, in random order.
inline std::vector<NodeId> random_nodes(const topology::Grid& grid, int count, std::uint64_t seed) {
  const auto perm = random_permutation(static_cast<SlotId>(grid.num_nodes()), seed);
  return std::vector<NodeId>(perm.begin(), perm.begin() + count);
}

/// P = 1, 2 and primes; ppn 1 to 4, partly filled and uneven nodes; disconnected allocations;
/// mixed torus/mesh and six-dimensional grids; graphs with and without grid structure.
inline std::vector<Instance> awkward_instances() {
  using topology::Allocation;
  using topology::Grid;
  std::vector<Instance> v;
  const auto add = [&](std::string name, graph::CommGraph g, Allocation a) {
    v.push_back({std::move(name), std::move(g), std::move(a)});
  };
  add("one_task", graph::CommGraph::from_edges(1, {}), Allocation::full(Grid::parse("mesh:1"), 1));
  add("two_tasks", path_graph(2), Allocation::full(Grid::parse("torus:2"), 1));
  add("prime_line", random_graph(7, 3, 1), Allocation::full(Grid::parse("mesh:7"), 1));
  const Grid t44 = Grid::parse("torus:4x4");
  add("prime_partial", random_graph(13, 4, 2), Allocation::of_nodes(t44, random_nodes(t44, 13, 3), 1));
  add("ppn4_random", random_graph(64, 4, 4), Allocation::full(t44, 4));
  add("ppn4_stencil", stencil_graph({8, 8}, true), Allocation::full(t44, 4));
  add("ppn3_truncated_prime", random_graph(89, 3, 5), Allocation::full(Grid::parse("torus:4x4x2"), 3).first_slots(89));
  add("ppn2_stencil_truncated", stencil_graph({5, 7}, false), Allocation::full(Grid::parse("mesh:3x3x2"), 2).first_slots(35));
  // Two disconnected 2x2 blocks in opposite corners of an 8x8 mesh, two slots per node.
  const Grid m88 = Grid::parse("mesh:8x8");
  const std::vector<NodeId> pieces = {63, 0, 1, 8, 9, 54, 55, 62};
  add("fragmented_ppn2", random_graph(16, 3, 6), Allocation::of_nodes(m88, pieces, 2));
  // Nodes with 1 to 3 slots, listed out of order (a hand-made slot list).
  add("uneven_ppn", random_graph(11, 2, 7), Allocation(m88, {9, 2, 9, 40, 2, 63, 9, 40, 5, 6, 6}));
  add("no_edges", graph::CommGraph::from_edges(10, {}), Allocation::full(Grid::parse("mesh:5"), 2));
  add("six_dims", random_graph(64, 3, 8), Allocation::full(Grid::parse("torus:2x2x2x2x2x2"), 1));
  add("star", star_graph(31), Allocation::of_nodes(Grid::parse("torus:4x4x4"), random_nodes(Grid::parse("torus:4x4x4"), 31, 9), 1));
  add("complete_ppn2", complete_graph(12), Allocation::full(Grid::parse("mesh:2x3"), 2));
  // Fragmented allocations whose last node is partly used, and mixed torus/mesh grids, in full and in part.
  const Grid t444 = Grid::parse("torus:4x4x4");
  const Grid mixed = Grid::parse("grid:6x5x2:torus=100");
  add("one_task_of_many", path_graph(1), Allocation::of_nodes(t444, random_nodes(t444, 3, 10), 2).first_slots(1));
  add("prime_mixed_partial", random_graph(37, 2, 11),
      Allocation::of_nodes(mixed, random_nodes(mixed, 20, 12), 2).first_slots(37));
  add("mixed_full_ppn2", random_graph(18, 3, 13), Allocation::full(Grid::parse("grid:3x3:torus=01"), 2));
  return v;
}

}  // namespace rankmap::testing
