// Concentration for ppn > 1: tasks clustered into groups that each fill one allocated node.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/topology/allocation.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace rankmap::mapping {

/// How the tasks were grouped.
enum class ConcentrationMethod {
  tiling,  ///< the graph is a stencil on a task grid: groups are tiles of it
  metis,   ///< METIS recursive bisection, then moved to exact group sizes
};

/// Tasks grouped into one group per allocated node.
struct Concentration {
  ConcentrationMethod method = ConcentrationMethod::metis;
  std::vector<int> group_of_task;
  /// Tasks in each group: group g has the slot count of node g (dense index), so the groups fill
  /// the nodes exactly, and a group may go onto any node with that many slots.
  std::vector<int> group_size;
  graph::CommGraph group_graph;  ///< bytes between groups, directed; traffic inside a group is dropped
  std::vector<int> task_grid;    ///< tiling: the task grid's extents, row-major (last fastest)
  std::vector<int> tile;         ///< tiling: the tile's extents
};

/// The extents of a task grid, row-major with the last fastest, if the graph is a stencil on one:
/// every edge, up to 1% of the bytes, joins tasks whose grid coordinates differ by at most one
/// in every dimension (wrapping around allowed). Strides are guessed from the index differences
/// of the edges that divide the task count. Among several valid guesses the one moving each edge
/// along the fewest dimensions wins, then the one with the most dimensions. Graphs
/// with many more distinct index differences than edges per task are rejected at once, and so are
/// graphs with more than 242 edges per task on average (a five-dimensional 243-point stencil): an
/// all-to-all of 2^m tasks is a stencil on 2x...x2 and is not reported as one, nor is an fft2d on
/// an elongated process grid such as 2x256. Empty when no such grid is found.
std::vector<int> detect_task_grid(const graph::CommGraph& graph);

/// The tile of exactly `tile_size` tasks, each extent dividing the grid's, that cuts the fewest
/// bytes, where `bytes_along[d]` is the traffic along dimension d and a tile of extent T cuts
/// about 1/T of it. Empty if no such tile exists.
std::vector<int> choose_tile(std::span<const int> task_grid, std::span<const double> bytes_along, int tile_size);

/// Part of every task, with exactly sizes[p] tasks in part p (the sizes add up to the task count):
/// METIS recursive bisection on the symmetrized graph (seeded), then greedy moves of the least
/// connected tasks until every part has its size. This is concentrate() without tiling, for any sizes.
/// With a deadline the bisections are made one at a time, and once it leaves less than a bisection
/// of the range at hand may take (at the slowest rates measured: 3.7 us a task, 0.015 us an
/// adjacency entry), the parts left are filled with tasks in id order (the launcher's grouping),
/// so only a bisection slower than those rates and the size repair run past it.
std::vector<int> partition_exact(const graph::CommGraph& graph, std::span<const int> sizes, std::uint64_t seed,
                                 const Deadline* deadline = nullptr);

/// Groups the tasks of `graph` (graph.num_tasks() == alloc.num_slots()) into one group per node.
/// Tiling is used when every node has the same slot count and the graph is a stencil whose grid
/// admits a tile of that size; METIS recursive bisection (seeded) otherwise, followed by greedy moves of the
/// least connected tasks until every group has exactly its node's size.
/// `deadline`, if given, bounds the METIS partition as in partition_exact().
Concentration concentrate(const graph::CommGraph& graph, const topology::Allocation& alloc, std::uint64_t seed,
                          const Deadline* deadline = nullptr);

/// slot_of for groups placed on nodes: the tasks of group g take, in ascending order, the slots
/// of node node_of_group[g], which must have group_size[g] slots.
Mapping expand_groups(const Concentration& concentration, const topology::Allocation& alloc,
                      std::span<const int> node_of_group);

}  // namespace rankmap::mapping
