// Greedy graph growing: split a set of tasks into groups of given sizes, keeping heavy edges inside groups.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <span>
#include <vector>

namespace rankmap::runtime {

/// Reusable across calls on one graph, so that splitting many small sets (one per node) costs
/// O(edges of the set) each, not O(all tasks).
class GroupGrower {
 public:
  /// `graph` should be symmetric (CommGraph::symmetrized()), so affinity counts both directions.
  explicit GroupGrower(const graph::CommGraph& graph);

  /// Fills group 0, then 1, ...: each starts at seeds[g] (or, if that task is taken or -1, the first
  /// free task in `tasks` order) and repeatedly adds the free task with the most bytes to the group
  /// so far, ties to the lower task id; a group with no connected free task continues in `tasks` order.
  /// `capacities` must sum to tasks.size(). Returns the group of each entry of `tasks`.
  std::vector<int> grow(std::span<const TaskId> tasks, std::span<const int> capacities, std::span<const TaskId> seeds);

 private:
  const graph::CommGraph& graph_;
  std::vector<int> group_of_;       ///< -1 free, -2 not in the current set, else the group
  std::vector<double> affinity_;
};

}  // namespace rankmap::runtime
