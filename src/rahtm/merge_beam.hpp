// The beam search that orients the children of one block against each other (phase 3's core).
#pragma once

#include "block_tree.hpp"
#include "orientation.hpp"

#include <rankmap/mapping/mapping.hpp>
#include <rankmap/topology/routing.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace rankmap::rahtm {

/// A child block as the beam sees it: its cells and the orientations it may take.
struct MergeChild {
  Box box;
  std::vector<NodeId> node_of_cell;         ///< grid node of every cell of the box
  std::vector<int> orientation_index;       ///< index into the box's enumeration (0 = identity)
  std::vector<std::vector<int>> cell_image; ///< per allowed orientation: cell -> cell
  /// When this child is placed first: the orientations worth trying (empty: all). The others
  /// are images of these under a symmetry of the parent that keeps every child in place.
  std::vector<char> lead_choices;
};

/// Node-to-node traffic inside the block, between (child, cell) endpoints.
struct MergeFlow {
  int src_child, src_cell, dst_child, dst_cell;
  double bytes;
};

struct BeamResult {
  std::vector<int> orientation;  ///< chosen entry of MergeChild::orientation_index, per child
  double mcl = 0;
  double sumsq = 0;
  /// The deadline stopped the search: every child keeps its current orientation (entry 0), and
  /// mcl and sumsq are not computed.
  bool cut = false;
};

/// Route caches and buffers that merge_children() keeps from one call to the next, so that the
/// many merges of a hierarchy route each node pair once and reuse their memory. One workspace
/// serves one thread and one routing model at a time.
class BeamWorkspace {
 public:
  BeamWorkspace();
  ~BeamWorkspace();
  BeamWorkspace(const BeamWorkspace&) = delete;
  BeamWorkspace& operator=(const BeamWorkspace&) = delete;
  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

struct BeamOptions {
  int beam = 64;
  int threads = 1;
  /// Optional: hears the fraction of children placed, on the calling thread.
  std::function<void(double)> report;
  /// Optional: reused between calls (a private one otherwise).
  BeamWorkspace* workspace = nullptr;
  /// Optional: looked at before every candidate is scored; once it has passed, the search stops
  /// and the result is cut.
  const mapping::Deadline* deadline = nullptr;
};

/// Orients the children one at a time, in decreasing order of their average pairwise MCL (the
/// MCL of the traffic between two children alone, in their current orientations, averaged over
/// the siblings). Each step extends the best partial solution by every orientation of the next
/// child, the other kept partial solutions by the 2 * beam orientations that ranked best on it,
/// and keeps the `beam` best, ranked by (exact MCL of all the traffic placed so far
/// under `routing`, then the sum of squared loads); only the new child's flows are routed, on
/// top of the partial solution's loads. Exact duplicates (same load vector) are kept once.
/// The answer is never worse than giving every child the same orientation, which is also tried,
/// unless it is cut.
BeamResult merge_children(const std::vector<MergeChild>& children, const std::vector<MergeFlow>& flows,
                          const topology::RoutingModel& routing, const BeamOptions& options);

/// The merge order: children by decreasing average pairwise MCL, ties by index.
/// `workspace`, if given, lends its route cache.
std::vector<int> merge_order(const std::vector<MergeChild>& children, const std::vector<MergeFlow>& flows,
                             const topology::RoutingModel& routing, BeamWorkspace* workspace = nullptr);

}  // namespace rankmap::rahtm
