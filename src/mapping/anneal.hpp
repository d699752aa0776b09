// anneal with a report of its result, for auto (map_anneal is the registered entry point).
#pragma once

#include "objective_score.hpp"

#include <rankmap/mapping/mapping.hpp>

#include <optional>

namespace rankmap::mapping::detail {

/// What one anneal run found.
struct AnnealReport {
  /// The score of the returned mapping, set whenever it is not the input: anneal computed it from
  /// scratch to check its result against the input, so auto need not route every flow once more.
  std::optional<Score> score;
};

/// map_anneal, filling `report`.
Mapping anneal_mapping(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options,
                       AnnealReport& report);

}  // namespace rankmap::mapping::detail
