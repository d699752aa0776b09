// The placement problem mahd and emahd solve: tasks onto slots, or concentrated groups onto nodes.
#pragma once

#include <rankmap/mapping/concentration.hpp>
#include <rankmap/mapping/mapping.hpp>

#include "greedy_embedding.hpp"

#include <memory>
#include <optional>
#include <string_view>

namespace rankmap::mapping::detail {

/// The parameter of mahd and emahd: comma-separated `direct` (place single tasks on slots even
/// when nodes have several), `concentrate` (group tasks into nodes first; the default when some
/// node has more than one slot) and, for emahd only, a number N (at most N start nodes).
/// The share of the time budget the concentration's METIS partition may take: the rest is for the
/// greedy, the scoring and the steps around them (symmetrizing, grouping), which cannot be cut. Not
/// tuned: half.
inline constexpr double kConcentrationShare = 0.5;

struct MahdParameters {
  bool concentrate = true;
  long long max_starts = 0;  ///< 0: every node
};
MahdParameters parse_mahd_parameters(const MapOptions& options, std::string_view algorithm, bool takes_count);

/// mahd's greedy set up for one graph and allocation.
class MahdProblem {
 public:
  /// `partition_deadline`, if given, bounds the concentration's partition (see partition_exact()).
  MahdProblem(const graph::CommGraph& graph, const topology::Allocation& alloc, bool concentrate, std::uint64_t seed,
              const Deadline* partition_deadline = nullptr);

  const GreedyPlacer& placer() const noexcept { return *placer_; }
  /// The mapping of one greedy run's result.
  Mapping mapping(std::span<const int> node_of_item) const;

 private:
  const topology::Allocation& alloc_;
  std::optional<Concentration> concentration_;
  std::shared_ptr<const graph::CommGraph> item_graph_;  ///< symmetrized graph of tasks or groups
  std::unique_ptr<GreedyPlacer> placer_;
};

}  // namespace rankmap::mapping::detail
