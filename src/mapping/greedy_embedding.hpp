// The greedy engine behind mahd, emahd and gge: items placed one by one onto allocated nodes.
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include "grid_search.hpp"

#include <optional>
#include <vector>

namespace rankmap::mapping::detail {

/// What the greedy places: items (tasks, or groups of tasks after concentration) onto the
/// allocation's nodes (dense indices).
struct PlacementProblem {
  const graph::CommGraph* graph = nullptr;  ///< symmetrized bytes between items
  std::vector<int> demand;                  ///< slots each item needs
  std::vector<int> capacity;                ///< slots of each node
  /// Items are whole nodes: an item goes only onto an empty node of exactly its demand.
  /// Otherwise items have demand 1 and share nodes up to their capacity.
  bool exact_fit = false;
};

/// Which item is placed next.
enum class NextItem {
  most_connected,  ///< mahd: max-heap by bytes to already placed items
  discovery,       ///< gge: breadth-first, in the order items are first reached
};
/// Where mahd's greedy starts and how it breaks ties in its frontier. Neither variant wins
/// everywhere, so mahd runs both (see map_mahd).
enum class GreedyVariant {
  /// The first item is the busiest with the lowest id; frontier ties go to the lowest id. A
  /// periodic stencil on a whole torus comes out exactly embedded.
  by_id,
  /// The first item is the busiest nearest the graph's centre, and frontier ties go to the newest
  /// entry, so the greedy keeps growing around what it placed last (a subtree, a row of a grid).
  from_centre,
};
/// What the chosen node must be close to.
enum class Target {
  placed_neighbours,     ///< mahd: least bytes-weighted average hop distance to all placed neighbours
  last_placed_neighbour  ///< gge: the nearest free node to the neighbour placed most recently
};

/// One greedy run's result.
struct Placement {
  std::vector<int> node_of_item;
  /// The deadline passed before the greedy ended: the items it had not placed took the free room
  /// in node order (the launcher's order), which is valid but not the greedy's choice.
  bool cut = false;
};

/// The first item (most bytes, then most neighbours; see GreedyVariant) goes onto a start node,
/// each next item onto
/// the fitting node that is best for its target. The best node is found by walking rings of
/// growing hop distance around the weighted centre of the target, which stops as soon as no
/// farther node can be better (a node r hops from the centre c costs at least W*r - cost(c));
/// when the rings would visit more grid points than there are open nodes, the open nodes are
/// scanned instead. Off grids the search goes group by group instead of ring by ring (LevelSearch).
/// Components of the graph follow each other, each starting next to the last placed node. A run
/// looks at the deadline, if given, every kClockEvery items.
class GreedyPlacer {
 public:
  GreedyPlacer(const topology::Allocation& alloc, PlacementProblem problem, NextItem next, Target target);

  static constexpr int kClockEvery = 64;

  /// `start_node` receives the first item (if it does not fit, the nearest node that does); -1
  /// means the most central node, the one with the least hop distance to all others. Safe to call
  /// from several threads at once.
  Placement place(int start_node = -1, GreedyVariant variant = GreedyVariant::by_id,
                  const Deadline* deadline = nullptr) const;

  int most_central_node() const noexcept { return most_central_; }

 private:
  friend class GreedyRun;

  const topology::Allocation& alloc_;
  PlacementProblem problem_;
  NextItem next_;
  Target target_;
  NodeLookup lookup_;
  /// On a grid: as many rings as a search visits before it scans the open nodes instead.
  std::optional<RingOffsets> rings_;
  std::vector<topology::Coords> coords_;  ///< of every dense node (on a grid; zeros otherwise)
  std::vector<double> total_weight_;      ///< bytes of each item
  std::vector<TaskId> items_by_weight_;   ///< component starts: most bytes, then most neighbours first
  TaskId central_first_ = 0;  ///< GreedyVariant::from_centre's first item
  int most_central_ = 0;                  ///< among the nodes that fit the first item
};

/// slot_of from node_of_task: the tasks of a node take its slots in ascending task order.
Mapping slots_from_nodes(const topology::Allocation& alloc, std::span<const int> node_of_task);

}  // namespace rankmap::mapping::detail
