// Phase 3 of RAHTM: bottom-up merging of blocks, each child oriented against its siblings.
#pragma once

#include "block_tree.hpp"

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/topology/allocation.hpp>
#include <rankmap/topology/routing.hpp>

#include <functional>
#include <vector>

namespace rankmap::rahtm {

struct MergeOptions {
  int beam = 64;
  int threads = 1;
  /// Orientations tried per child at most (2^n n! grows fast); fewer for boxes of many cells,
  /// so that the cell tables of one merge stay within ~2^22 entries per child.
  std::size_t max_orientations = 3840;
  /// Optional: the beam is narrowed so that the merges left fit the time left, a merge the
  /// deadline stops keeps its children as they are, and none starts once it has passed.
  const mapping::Deadline* deadline = nullptr;
};

/// What the deadline did to the merges.
struct MergeStats {
  int narrowest_beam = 0;  ///< the smallest beam a merge used (MergeOptions::beam unless narrowed)
  int merges_cut = 0;      ///< block merges stopped or skipped: their children keep the top-down placement
};

/// Walks the block tree from the deepest internal level up to the root. At every block whose
/// children can be oriented (a child box with symmetries that map its allocated nodes onto
/// allocated nodes with the same slot counts), the beam search of merge_children() picks an
/// orientation per child for the traffic inside the block, and the tasks of each child move
/// accordingly. `node_of_task` (dense allocation node per task) is updated in place.
/// `report(fraction)` runs on the calling thread.
MergeStats merge_blocks(const graph::CommGraph& graph, const topology::Allocation& alloc, const BlockTree& tree,
                  const topology::RoutingModel& routing, std::vector<int>& node_of_task, const MergeOptions& options,
                  const std::function<void(double)>& report);

}  // namespace rankmap::rahtm
