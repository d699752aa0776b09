// Graph partitioning into parts of exact sizes: METIS, then a greedy repair of its imbalance.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace rankmap::rahtm {

/// Part of every vertex of `graph`, with exactly sizes[p] vertices in part p (the sizes must add
/// up to the vertex count). Edge weights count in both directions. METIS k-way (recursive
/// bisection for up to 8 parts) aims at the sizes; vertices are then moved out of overfull parts,
/// each to the underfull part it is most connected to, until every size is exact.
std::vector<int> partition_exact(const graph::CommGraph& graph, std::span<const std::int64_t> sizes,
                                 std::uint64_t seed);

/// The subgraph induced by `tasks` (vertex i of the result is tasks[i]).
graph::CommGraph induced_subgraph(const graph::CommGraph& graph, std::span<const TaskId> tasks);

/// Bytes on edges whose ends are in different parts.
double cut_weight(const graph::CommGraph& graph, std::span<const int> part_of);

}  // namespace rankmap::rahtm
