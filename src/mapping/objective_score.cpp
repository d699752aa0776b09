// Scoring complete mappings by MCL under the chosen routing, or by hop-bytes.
#include "objective_score.hpp"

#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

namespace rankmap::mapping::detail {

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

}  // namespace rankmap::mapping::detail
