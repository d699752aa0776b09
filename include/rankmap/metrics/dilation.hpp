// Dilation: how many hops the graph's edges are stretched over.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/topology/allocation.hpp>

#include <span>

namespace rankmap::metrics {

struct Dilation {
  double average = 0;  ///< hop count weighted by bytes (0 when the graph carries no bytes)
  int max = 0;         ///< largest hop count of any edge
};

Dilation dilation(const graph::CommGraph& graph, const topology::Allocation& alloc, std::span<const SlotId> slot_of);

}  // namespace rankmap::metrics
