// Every figure of merit of one mapping, as printed by `rankmap eval` and the runtime report.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/metrics/dilation.hpp>
#include <rankmap/topology/allocation.hpp>

#include <span>

namespace rankmap::metrics {

struct Quality {
  double hop_bytes = 0;
  double mcl_dor = 0;
  double mcl_adaptive = 0;
  double mcl_adaptive_hop = 0;
  Dilation dilation;
  double mcl_lower_bound = 0;
};

/// Evaluates all metrics; the node flows are aggregated once and routed under each model.
Quality evaluate(const graph::CommGraph& graph, const topology::Allocation& alloc, std::span<const SlotId> slot_of);

}  // namespace rankmap::metrics
