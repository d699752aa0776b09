// Channel loads and MCL under a routing model.
#include <rankmap/metrics/channel_load.hpp>

#include <algorithm>

namespace rankmap::metrics {

namespace {

constexpr std::size_t kFlowsPerStopCheck = 256;

}  // namespace

std::optional<std::vector<double>> channel_loads(std::span<const NodeFlow> flows, const topology::RoutingModel& routing,
                                                 const std::function<bool()>& should_stop) {
  std::vector<double> loads(static_cast<std::size_t>(routing.network().num_channel_slots()), 0.0);
  for (std::size_t i = 0; i < flows.size(); ++i) {
    if (i % kFlowsPerStopCheck == 0 && should_stop()) return std::nullopt;
    routing.add_flow(flows[i].src, flows[i].dst, flows[i].bytes, loads);
  }
  return loads;
}

std::vector<double> channel_loads(std::span<const NodeFlow> flows, const topology::RoutingModel& routing) {
  return *channel_loads(flows, routing, [] { return false; });
}

std::vector<double> channel_loads(const graph::CommGraph& graph, const topology::Allocation& alloc,
                                  std::span<const SlotId> slot_of, const topology::RoutingModel& routing) {
  return channel_loads(node_flows(graph, alloc, slot_of), routing);
}

double max_channel_load(std::span<const double> loads) {
  return loads.empty() ? 0.0 : *std::max_element(loads.begin(), loads.end());
}

double max_channel_load(const graph::CommGraph& graph, const topology::Allocation& alloc,
                        std::span<const SlotId> slot_of, const topology::RoutingModel& routing) {
  return max_channel_load(channel_loads(graph, alloc, slot_of, routing));
}

double phased_max_channel_load(std::span<const graph::CommGraph> phases, const topology::Allocation& alloc,
                               std::span<const SlotId> slot_of, const topology::RoutingModel& routing) {
  return *phased_max_channel_load(phases, alloc, slot_of, routing, [] { return false; });
}

std::optional<double> phased_max_channel_load(std::span<const graph::CommGraph> phases,
                                              const topology::Allocation& alloc, std::span<const SlotId> slot_of,
                                              const topology::RoutingModel& routing,
                                              const std::function<bool()>& should_stop) {
  double sum = 0;
  for (const graph::CommGraph& phase : phases) {
    const std::optional<std::vector<double>> loads =
        channel_loads(node_flows(phase, alloc, slot_of), routing, should_stop);
    if (!loads) return std::nullopt;
    sum += max_channel_load(*loads);
  }
  return sum;
}

}  // namespace rankmap::metrics
