// Clustering by tiling: the task space seen as a grid, cut into equal tiles level by level.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/mapping/mapping.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace rankmap::rahtm {

/// Tiles of every level of a regular hierarchy, bottom-up, over a task grid.
///
/// Tasks are numbered row-major over `task_grid` (dimension 0 slowest). Level 0 cuts the task
/// grid into tiles of `tiles[0]` (one node's worth of tasks); level j cuts the grid of level
/// j-1 tiles into tiles of `tiles[j]`.
struct Tiling {
  std::vector<int> task_grid;
  std::vector<std::vector<int>> tiles;
  std::vector<double> cuts;  ///< inter-cluster bytes after each level
};

/// For each level size (bottom-up, e.g. {ppn, 2, 16, 16}), every tile shape of that many
/// cells that divides the current grid is tried, and the one with the least traffic between
/// tiles is kept; ties go to the first shape in lexicographic order. Empty when some level
/// has no tile shape that divides the grid.
std::optional<Tiling> tile_levels(const graph::CommGraph& graph, std::span<const int> task_grid,
                                  std::span<const std::int64_t> level_sizes);

/// The best tiling over every way of seeing the tasks as a grid of one, two or three
/// dimensions (all ordered factorisations of the task count), compared level by level from the
/// bottom: the least node-level cut wins, the next level breaks ties, and so on. Once `deadline`
/// (if given) has passed, the grids not yet looked at are left out (the first, one-dimensional,
/// always counts).
std::optional<Tiling> infer_tiling(const graph::CommGraph& graph, std::span<const std::int64_t> level_sizes,
                                   const mapping::Deadline* deadline = nullptr);

/// Cluster of every task after `levels` levels of the tiling (0: every task its own cluster),
/// numbered row-major over the grid of clusters.
std::vector<int> tiling_clusters(const Tiling& tiling, int levels);

}  // namespace rankmap::rahtm
