// Phase 1 of RAHTM: concentration into node-sized clusters and the cluster hierarchy above them.
#pragma once

#include "block_tree.hpp"
#include "tiling.hpp"

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/mapping/mapping.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rankmap::rahtm {

enum class ClusterMode {
  automatic,  ///< tiling when the graph has grid structure and the hierarchy is regular, else METIS
  tile,       ///< tiling, failing if the hierarchy is not regular or no tile shape fits
  metis,      ///< METIS always
};

struct ClusteringParams {
  ClusterMode mode = ClusterMode::automatic;
  std::vector<int> task_grid;  ///< the task grid when known (`rahtm:grid=128x128`); else inferred
  std::uint64_t seed = 1;
  friend bool operator==(const ClusteringParams&, const ClusteringParams&) = default;
};

/// How the tasks of every block are divided among its children.
///
/// Tiling (regular hierarchies only): the tasks are a row-major grid, cut bottom-up into tiles
/// of one node's slots, then of 2^n node tiles per level (the block's cube), keeping at each
/// level the tile shape that leaves the least traffic between tiles.
///
/// Grid structure is detected by comparison: the best tiling's node-level cut must be within 2%
/// of the cut of a METIS partition into the same nodes. Otherwise, and for irregular hierarchies
/// (fragmented allocations, uneven slot counts, sides that are not powers of two), each block's
/// tasks are split top-down by METIS into parts of exactly its children's slot counts.
class Clustering {
 public:
  /// `deadline`, if given, bounds every METIS partition (mapping::partition_exact()) and the search
  /// for a tiling (infer_tiling()).
  Clustering(const graph::CommGraph& graph, const BlockTree& tree, const ClusteringParams& params,
             const mapping::Deadline* deadline = nullptr);

  bool tiled() const { return !cluster_of_depth_.empty(); }
  /// What was chosen, for reports: `tiling 128x128: 4x8 | 2x1 | 4x4 | 2x8` or `metis`.
  const std::string& description() const { return description_; }

  /// The tasks of `block` in one part per occupied child vertex, in vertex order; part i has the
  /// slot count of the i-th occupied child.
  std::vector<std::vector<TaskId>> split(const graph::CommGraph& graph, const BlockTree& tree, int block,
                                         std::span<const TaskId> tasks) const;

 private:
  void use_tiling(const Tiling& tiling, const BlockTree& tree);

  std::vector<std::vector<int>> cluster_of_depth_;  ///< tiling: the cluster of every task at every depth
  std::uint64_t seed_;
  const mapping::Deadline* deadline_;
  std::string description_ = "metis";
};

/// Level sizes of a regular hierarchy, bottom-up: the slots of a leaf, then the children per
/// block from the deepest internal level to the root.
std::vector<std::int64_t> level_sizes(const BlockTree& tree);

}  // namespace rankmap::rahtm
