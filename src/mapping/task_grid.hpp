// Internal part of task-grid detection shared with concentration.
#pragma once

#include "graph_memo.hpp"

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/mapping/concentration.hpp>

#include <span>
#include <vector>

namespace rankmap::mapping::detail {

/// While it lives, detect_task_grid on this thread detects the grid of `graph` (the same object)
/// once and answers later calls from memory. auto's members (split, bisect, and emahd's
/// concentration) each detect the grid of the graph auto was given; at 8,192 tasks (recursive
/// doubling) one detection took 14 ms of the runtime's 200.
using TaskGridMemo = GraphMemo<std::vector<int>>;

/// Bytes of the edges that move along each dimension of a row-major task grid (an edge moving
/// along several dimensions counts for each).
std::vector<double> bytes_along_dimensions(const graph::CommGraph& graph, std::span<const int> task_grid);

/// The group of every task when the task grid is cut into tiles, numbered row-major.
std::vector<int> tile_groups(std::span<const int> task_grid, std::span<const int> tile);

}  // namespace rankmap::mapping::detail
