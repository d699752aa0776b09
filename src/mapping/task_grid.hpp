// Internal part of task-grid detection shared with concentration.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <span>
#include <vector>

namespace rankmap::mapping::detail {

/// Bytes of the edges that move along each dimension of a row-major task grid (an edge moving
/// along several dimensions counts for each).
std::vector<double> bytes_along_dimensions(const graph::CommGraph& graph, std::span<const int> task_grid);

/// The group of every task when the task grid is cut into tiles, numbered row-major.
std::vector<int> tile_groups(std::span<const int> task_grid, std::span<const int> tile);

}  // namespace rankmap::mapping::detail
