// Scoring complete mappings by MCL under the chosen routing, or by hop-bytes.
#include "objective_score.hpp"

#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

namespace rankmap::mapping::detail {

ObjectiveScorer::ObjectiveScorer(const graph::CommGraph& graph, const topology::Allocation& alloc,
                                 const MapOptions& options)
    : graph_(graph), alloc_(alloc), phases_(options.phases) {
  if (options.objective == Objective::mcl) routing_ = topology::shared_routing_model(alloc.network(), options.routing);
}

Score ObjectiveScorer::operator()(std::span<const SlotId> slot_of, Loads* kept) const {
  const auto never = [] { return false; };
  return *score(slot_of, never, kept);
}

std::optional<Score> ObjectiveScorer::within(std::span<const SlotId> slot_of, const Deadline& deadline,
                                             Loads* kept) const {
  const auto passed = [&deadline] { return deadline.passed(); };
  return score(slot_of, passed, kept);
}

std::optional<Score> ObjectiveScorer::score(std::span<const SlotId> slot_of, const std::function<bool()>& should_stop,
                                            Loads* kept) const {
  Score result;
  if (kept) kept->reset();
  // MCL first: hop-bytes cannot be stopped (16 to 23 ms for an all-to-all of 1,024 tasks on a
  // machine with slow page faults), and a scoring cut short has no use for them.
  if (routing_) {
    const std::optional<double> objective = mcl(slot_of, should_stop, kept);
    if (!objective) return std::nullopt;
    result.objective = *objective;
  }
  result.hop_bytes = metrics::hop_bytes(graph_, alloc_, slot_of);
  if (!routing_) result.objective = result.hop_bytes;
  return result;
}

// One phase's loads are kept as they are: their maximum is the MCL that phased_max_channel_load
// would sum from 0, bit for bit.
std::optional<double> ObjectiveScorer::mcl(std::span<const SlotId> slot_of, const std::function<bool()>& should_stop,
                                           Loads* kept) const {
  if (!kept || !phases_.empty())
    return metrics::phased_max_channel_load(metrics::phases_or_whole(graph_, phases_), alloc_, slot_of, *routing_,
                                            should_stop);
  std::optional<std::vector<double>> loads = metrics::channel_loads(graph_, alloc_, slot_of, *routing_, should_stop);
  if (!loads) return std::nullopt;
  const double value = metrics::max_channel_load(*loads);
  *kept = std::make_shared<const std::vector<double>>(std::move(*loads));
  return value;
}

}  // namespace rankmap::mapping::detail
