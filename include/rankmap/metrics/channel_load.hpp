// Channel loads under a routing model, and the maximum channel load (MCL), the main objective.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/metrics/node_flows.hpp>
#include <rankmap/topology/allocation.hpp>
#include <rankmap/topology/routing.hpp>

#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace rankmap::metrics {

/// Load of every channel (indexed by channel id): bytes crossing it divided by its capacity.
std::vector<double> channel_loads(std::span<const NodeFlow> flows, const topology::RoutingModel& routing);
/// The same loads, or nothing once `should_stop` returns true: routing a dense graph can take
/// seconds, longer than a mapper's budget. It is asked every few hundred flows, because asking a
/// clock costs about as much as routing a short flow.
std::optional<std::vector<double>> channel_loads(std::span<const NodeFlow> flows, const topology::RoutingModel& routing,
                                                 const std::function<bool()>& should_stop);
std::vector<double> channel_loads(const graph::CommGraph& graph, const topology::Allocation& alloc,
                                  std::span<const SlotId> slot_of, const topology::RoutingModel& routing);
/// The same loads, or nothing once `should_stop` returns true: it is asked once per node while the
/// flows are gathered (node_flows), then as the routing above asks it.
std::optional<std::vector<double>> channel_loads(const graph::CommGraph& graph, const topology::Allocation& alloc,
                                                 std::span<const SlotId> slot_of, const topology::RoutingModel& routing,
                                                 const std::function<bool()>& should_stop);

/// The largest entry of a load vector (0 when empty).
double max_channel_load(std::span<const double> loads);
double max_channel_load(const graph::CommGraph& graph, const topology::Allocation& alloc,
                        std::span<const SlotId> slot_of, const topology::RoutingModel& routing);

/// The MCL of communication that runs in phases, one after another (the sweeps of NAS BT, the
/// rounds of a recursive doubling): the sum of the phases' MCLs, because each phase waits for its
/// own busiest channel. 0 when there are no phases.
double phased_max_channel_load(std::span<const graph::CommGraph> phases, const topology::Allocation& alloc,
                               std::span<const SlotId> slot_of, const topology::RoutingModel& routing);
/// The same sum, or nothing once `should_stop` returns true (asked as channel_loads asks it).
std::optional<double> phased_max_channel_load(std::span<const graph::CommGraph> phases,
                                              const topology::Allocation& alloc, std::span<const SlotId> slot_of,
                                              const topology::RoutingModel& routing,
                                              const std::function<bool()>& should_stop);

/// What phased_max_channel_load should sum for a graph that may come with phases
/// (MapOptions::phases): the phases when there are any, otherwise the graph as its one phase.
inline std::span<const graph::CommGraph> phases_or_whole(const graph::CommGraph& graph,
                                                         std::span<const graph::CommGraph> phases) {
  return phases.empty() ? std::span(&graph, 1) : phases;
}

}  // namespace rankmap::metrics
