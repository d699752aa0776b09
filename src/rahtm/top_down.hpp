// Phase 2 of RAHTM: each block's clusters mapped onto its cube, from the root down to the nodes.
#pragma once

#include "block_tree.hpp"
#include "clustering.hpp"
#include "cube_solver.hpp"

#include <functional>
#include <vector>

namespace rankmap::rahtm {

/// The traffic between the parts of a block, as a cube problem of the block.
CubeProblem block_problem(const graph::CommGraph& graph, const BlockTree& tree, int block,
                          const std::vector<std::vector<TaskId>>& parts);

/// Maps the tasks level by level: the root's tasks are split into clusters, the clusters are
/// placed on the root's cube, and each child receives its cluster's tasks; then the same one
/// level down. All cube problems of a level are solved together (shared solutions, threads).
/// Returns the dense allocation node of every task. `report(fraction)` runs on the calling thread.
std::vector<int> map_top_down(const graph::CommGraph& graph, const BlockTree& tree, const Clustering& clustering,
                              CubeSolver& solver, const std::function<void(double)>& report);

}  // namespace rankmap::rahtm
