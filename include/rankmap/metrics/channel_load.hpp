// Channel loads under a routing model, and the maximum channel load (MCL), the main objective.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/metrics/node_flows.hpp>
#include <rankmap/topology/allocation.hpp>
#include <rankmap/topology/routing.hpp>

#include <span>
#include <vector>

namespace rankmap::metrics {

/// Load of every channel (indexed by channel id): bytes crossing it divided by its capacity.
std::vector<double> channel_loads(std::span<const NodeFlow> flows, const topology::RoutingModel& routing);
std::vector<double> channel_loads(const graph::CommGraph& graph, const topology::Allocation& alloc,
                                  std::span<const SlotId> slot_of, const topology::RoutingModel& routing);

/// The largest entry of a load vector (0 when empty).
double max_channel_load(std::span<const double> loads);
double max_channel_load(const graph::CommGraph& graph, const topology::Allocation& alloc,
                        std::span<const SlotId> slot_of, const topology::RoutingModel& routing);

}  // namespace rankmap::metrics
