// The Gilmore-Lawler lower bound on hop-bytes, seen as a quadratic assignment problem.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/topology/allocation.hpp>

namespace rankmap::metrics {

/// The largest task count times node count gilmore_lawler_bound accepts (its cost matrix is dense).
inline constexpr double kMaxGilmoreLawlerCells = 1 << 25;

/// A lower bound on the hop-bytes of every mapping of `graph` onto `alloc` (Gilmore 1962, Lawler 1963).
///
/// Hop-bytes is the quadratic assignment sum_ij f_ij d(slot_i, slot_j) with f = (w + w^T) / 2 and d
/// the hop distance of the slots' nodes (0 within a node). Placing task i on node n costs at least
/// l(i, n): the minimal scalar product of i's flows sorted down with the distances from one slot of n
/// to the P-1 other slots sorted up. The bound is the least-cost assignment of tasks to nodes under
/// l, each node taking as many tasks as it has slots. Throws InputError when P x nodes exceeds
/// kMaxGilmoreLawlerCells or the graph and allocation differ in size.
double gilmore_lawler_bound(const graph::CommGraph& graph, const topology::Allocation& alloc);

}  // namespace rankmap::metrics
