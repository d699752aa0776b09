// Channel loads and MCL under a routing model.
#include <rankmap/metrics/channel_load.hpp>

#include <algorithm>
#include <numeric>

namespace rankmap::metrics {

namespace {

constexpr std::size_t kFlowsPerStopCheck = 256;
/// Flows are grouped by destination only when there are this many per node of the network: with
/// fewer, no destination has flows enough to walk together, and grouping them and sizing their
/// boxes made sparse traffic slower (a 27-point stencil on 1,000 scattered nodes: about 1.3 times).
constexpr std::size_t kFlowsPerNodeToGroup = 16;

/// Adds the flows destination by destination, for a routing model that spreads the flows to one
/// destination together (add_flows_to), checking should_stop() about every kFlowsPerStopCheck flows.
bool add_by_destination(std::span<const NodeFlow> flows, const topology::RoutingModel& routing,
                        const std::function<bool()>& should_stop, std::span<double> loads) {
  const auto nodes = static_cast<std::size_t>(routing.network().num_nodes());
  std::vector<std::size_t> first(nodes + 1, 0);
  for (const NodeFlow& f : flows) ++first[static_cast<std::size_t>(f.dst) + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  std::vector<topology::SourceBytes> sources(flows.size());
  std::vector<std::size_t> next(first.begin(), first.end() - 1);
  for (const NodeFlow& f : flows) sources[next[f.dst]++] = {f.src, f.bytes};
  std::size_t since_check = kFlowsPerStopCheck;
  for (std::size_t dst = 0; dst < nodes; ++dst) {
    const std::span<const topology::SourceBytes> to_dst(sources.data() + first[dst], first[dst + 1] - first[dst]);
    if (to_dst.empty()) continue;
    if (since_check >= kFlowsPerStopCheck) {
      if (should_stop()) return false;
      since_check = 0;
    }
    routing.add_flows_to(static_cast<NodeId>(dst), to_dst, loads);
    since_check += to_dst.size();
  }
  return true;
}

}  // namespace

std::optional<std::vector<double>> channel_loads(std::span<const NodeFlow> flows, const topology::RoutingModel& routing,
                                                 const std::function<bool()>& should_stop) {
  std::vector<double> loads(static_cast<std::size_t>(routing.network().num_channel_slots()), 0.0);
  if (routing.spreads_by_destination() &&
      flows.size() >= kFlowsPerNodeToGroup * static_cast<std::size_t>(routing.network().num_nodes())) {
    if (!add_by_destination(flows, routing, should_stop, loads)) return std::nullopt;
    return loads;
  }
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
  return *channel_loads(graph, alloc, slot_of, routing, [] { return false; });
}

std::optional<std::vector<double>> channel_loads(const graph::CommGraph& graph, const topology::Allocation& alloc,
                                                 std::span<const SlotId> slot_of, const topology::RoutingModel& routing,
                                                 const std::function<bool()>& should_stop) {
  const std::optional<std::vector<NodeFlow>> flows = node_flows(graph, alloc, slot_of, should_stop);
  if (!flows) return std::nullopt;
  return channel_loads(*flows, routing, should_stop);
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
    const std::optional<std::vector<double>> loads = channel_loads(phase, alloc, slot_of, routing, should_stop);
    if (!loads) return std::nullopt;
    sum += max_channel_load(*loads);
  }
  return sum;
}

}  // namespace rankmap::metrics
