// Scoring complete mappings by MCL under the chosen routing, or by hop-bytes.
#include "objective_score.hpp"

#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

namespace rankmap::mapping::detail {

namespace {

/// How many flows are routed between two looks at the clock: a look costs about as much as a short flow.
constexpr std::size_t kFlowsPerClockCheck = 256;

/// metrics::max_channel_load, routing the flows in the same order, or nothing once `deadline` passed.
std::optional<double> max_channel_load_within(const graph::CommGraph& graph, const topology::Allocation& alloc,
                                              std::span<const SlotId> slot_of,
                                              const topology::RoutingModel& routing, const Deadline& deadline) {
  const std::vector<metrics::NodeFlow> flows = metrics::node_flows(graph, alloc, slot_of);
  std::vector<double> loads(static_cast<std::size_t>(routing.network().num_channel_slots()), 0.0);
  for (std::size_t i = 0; i < flows.size(); ++i) {
    if (i % kFlowsPerClockCheck == 0 && deadline.passed()) return std::nullopt;
    routing.add_flow(flows[i].src, flows[i].dst, flows[i].bytes, loads);
  }
  return metrics::max_channel_load(loads);
}

}  // namespace

ObjectiveScorer::ObjectiveScorer(const graph::CommGraph& graph, const topology::Allocation& alloc,
                                 const MapOptions& options)
    : graph_(graph), alloc_(alloc), phases_(options.phases) {
  if (options.objective == Objective::mcl) routing_ = topology::make_routing_model(alloc.network(), options.routing);
}

Score ObjectiveScorer::operator()(std::span<const SlotId> slot_of) const {
  Score score;
  score.hop_bytes = metrics::hop_bytes(graph_, alloc_, slot_of);
  if (!routing_) score.objective = score.hop_bytes;
  else if (phases_.empty()) score.objective = metrics::max_channel_load(graph_, alloc_, slot_of, *routing_);
  else score.objective = metrics::phased_max_channel_load(phases_, alloc_, slot_of, *routing_);
  return score;
}

std::optional<Score> ObjectiveScorer::within(std::span<const SlotId> slot_of, const Deadline& deadline) const {
  Score score;
  score.hop_bytes = metrics::hop_bytes(graph_, alloc_, slot_of);
  if (!routing_) {
    score.objective = score.hop_bytes;
    return score;
  }
  const std::span<const graph::CommGraph> phases = phases_.empty() ? std::span(&graph_, 1) : phases_;
  for (const graph::CommGraph& phase : phases) {
    const std::optional<double> load = max_channel_load_within(phase, alloc_, slot_of, *routing_, deadline);
    if (!load) return std::nullopt;
    score.objective += *load;
  }
  return score;
}

}  // namespace rankmap::mapping::detail
