// refine with a report of its search, for tests and benchmarks (map_refine is the registered entry point).
#pragma once

#include <rankmap/mapping/mapping.hpp>

namespace rankmap::mapping::detail {

/// What one refine run did.
struct RefineReport {
  long long attempts = 0;  ///< swaps tried, random and in sweeps
  long long kept = 0;      ///< swaps kept
  int sweeps = 0;          ///< full sweeps of the near moves
  /// Every phase ended at a local optimum (a full sweep kept nothing, or the objective was 0),
  /// not because the budget or the attempt count ran out.
  bool converged = false;
};

/// map_refine, filling `report`.
Mapping refine_mapping(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options,
                       RefineReport& report);

}  // namespace rankmap::mapping::detail
