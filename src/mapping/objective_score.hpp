// Scoring complete mappings by the objective of MapOptions, for mappers that compare candidates.
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace rankmap::mapping::detail {

/// The objective value of a mapping, with hop-bytes breaking MCL ties.
struct Score {
  double objective = 0;  ///< MCL under options.routing (summed over options.phases if any), or hop-bytes
  double hop_bytes = 0;
  friend bool operator<(const Score& a, const Score& b) {
    return a.objective < b.objective || (a.objective == b.objective && a.hop_bytes < b.hop_bytes);
  }
};

/// Builds the routing model once and scores any number of mappings; safe to call from several
/// threads at once.
class ObjectiveScorer {
 public:
  ObjectiveScorer(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options);
  /// The channel loads behind a score under MCL without phases (KnownInput::loads).
  using Loads = std::shared_ptr<const std::vector<double>>;
  /// The score; `kept` (if given) receives the channel loads behind it, or null where the objective
  /// is not one MCL.
  Score operator()(std::span<const SlotId> slot_of, Loads* kept = nullptr) const;
  /// The same score, or nothing once `deadline` has passed: on a dense graph one score can cost many
  /// budgets (a 1,000-task all-to-all on scattered torus nodes, 4 to 8 s under adaptive routing).
  std::optional<Score> within(std::span<const SlotId> slot_of, const Deadline& deadline, Loads* kept = nullptr) const;

 private:
  std::optional<Score> score(std::span<const SlotId> slot_of, const std::function<bool()>& should_stop,
                             Loads* kept) const;
  std::optional<double> mcl(std::span<const SlotId> slot_of, const std::function<bool()>& should_stop,
                            Loads* kept) const;

  const graph::CommGraph& graph_;
  const topology::Allocation& alloc_;
  std::span<const graph::CommGraph> phases_;
  std::shared_ptr<const topology::RoutingModel> routing_;  ///< null under the hop-bytes objective
};

}  // namespace rankmap::mapping::detail
