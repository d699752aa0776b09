// Hop-bytes: bytes times minimal hop distance, summed over all edges.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/topology/allocation.hpp>

#include <span>

namespace rankmap::metrics {

/// sum over edges (i, j, w) of w * hops(node(slot_of[i]), node(slot_of[j])); 0 within a node.
double hop_bytes(const graph::CommGraph& graph, const topology::Allocation& alloc, std::span<const SlotId> slot_of);

}  // namespace rankmap::metrics
