// Induced subgraphs and cuts, for partitioning the tasks of one block.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <span>
#include <vector>

namespace rankmap::rahtm {

/// The subgraph induced by `tasks` (vertex i of the result is tasks[i]).
graph::CommGraph induced_subgraph(const graph::CommGraph& graph, std::span<const TaskId> tasks);

/// Bytes on edges whose ends are in different parts.
double cut_weight(const graph::CommGraph& graph, std::span<const int> part_of);

/// The graph of the parts: bytes from part a to part b, traffic inside a part dropped.
graph::CommGraph contract(const graph::CommGraph& graph, std::span<const int> part_of, int parts);

}  // namespace rankmap::rahtm
