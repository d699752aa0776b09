// Cheap lower bounds on the MCL any mapping of a graph onto an allocation can reach.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/topology/allocation.hpp>

namespace rankmap::metrics {

/// A lower bound valid for every routing model and every mapping.
///
/// A task can share its node with at most max_ppn-1 others, so at least its out-bytes minus
/// its max_ppn-1 heaviest out-edges cross the network, each for one hop or more (likewise for
/// in-bytes). The bound is the larger of (a) these forced bytes summed over tasks, times the
/// fewest channels a route between two nodes crosses (Network::min_hops), spread over the
/// network's total channel capacity, and (b) one task's forced bytes squeezed through the
/// channels of a single node.
double mcl_lower_bound(const graph::CommGraph& graph, const topology::Allocation& alloc);

}  // namespace rankmap::metrics
