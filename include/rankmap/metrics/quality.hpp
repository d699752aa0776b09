// Every figure of merit of one mapping, as printed by `rankmap eval` and the runtime report.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/metrics/dilation.hpp>
#include <rankmap/topology/allocation.hpp>

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace rankmap::metrics {

struct Quality {
  double hop_bytes = 0;
  /// Tori and meshes: the MCL under dor, adaptive and adaptive-hop (0 on other networks).
  double mcl_dor = 0;
  double mcl_adaptive = 0;
  double mcl_adaptive_hop = 0;
  /// The MCL under every routing the network takes (Network::routing_names), in that order.
  std::vector<std::pair<std::string, double>> mcl_by_routing;
  Dilation dilation;
  double mcl_lower_bound = 0;
};

/// Evaluates all metrics; the node flows are aggregated once and routed under each model.
Quality evaluate(const graph::CommGraph& graph, const topology::Allocation& alloc, std::span<const SlotId> slot_of);

}  // namespace rankmap::metrics
