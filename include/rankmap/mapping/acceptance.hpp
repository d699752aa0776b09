// The do-no-harm test that the runtime and `rankmap place` share: whether a mapping replaces the
// launcher's order.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/topology/allocation.hpp>

#include <span>
#include <string>

namespace rankmap::mapping {

/// What the launcher's order and the candidate score, and how much must be gained.
struct AcceptanceTest {
  double before = 0;    ///< the objective of the launcher's order
  double after = 0;     ///< the objective of the candidate
  double min_gain = 0;  ///< the relative improvement required (RANKMAP_MIN_GAIN)
  /// Also refuse a candidate that raises the maximum channel load under dimension-ordered routing.
  /// Set when the objective is MCL and the user did not name a routing: the objective then assumes
  /// adaptive routing, and a mapping that wins under that assumption can lose badly on a machine
  /// that routes dimension by dimension (SimGrid's torus, for one: BENCHMARKS.md, "Simulated
  /// network: the default mapper").
  bool check_dor = false;
};

/// Empty when `candidate` replaces `launcher`; otherwise why not, in words for a report line.
/// `candidate` and `launcher` are slot_of arrays over `alloc`'s slots.
std::string refusal_of(const AcceptanceTest& test, const graph::CommGraph& graph, const topology::Allocation& alloc,
                       std::span<const SlotId> candidate, std::span<const SlotId> launcher);

}  // namespace rankmap::mapping
