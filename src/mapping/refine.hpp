// refine with a report of its search, for tests and benchmarks (map_refine is the registered entry point).
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace rankmap::mapping::detail {

/// What one refine run did.
struct RefineReport {
  long long attempts = 0;  ///< swaps tried, random and in sweeps
  long long kept = 0;      ///< swaps kept
  int sweeps = 0;          ///< full sweeps of the near moves
  /// Every phase ended at a local optimum (a full sweep kept nothing, or the objective was 0),
  /// not because the budget or the attempt count ran out.
  bool converged = false;
  /// The objective of the returned mapping, set whenever it is not the input: refine computed it from
  /// scratch to check its result against the input (MCL summed over the phases, or hop-bytes, in the
  /// same sums and order as ObjectiveScorer), so auto need not route every flow once more.
  std::optional<double> objective;
};

/// What a caller such as auto has measured of refine's input already: its objective, computed as
/// ObjectiveScorer does, and about how long that took. Refine uses it under MCL without
/// MapOptions::phases (where the objective is one MCL) and ignores it otherwise.
struct KnownInput {
  double objective = 0;
  double evaluation_ms = 0;
  /// The channel loads behind `objective`, if the caller kept them, and how long routing them took:
  /// refine then searches from the input without routing its flows again.
  std::shared_ptr<const std::vector<double>> loads = nullptr;
  double loads_ms = 0;
};

/// What refine returns once it has searched from `input` to `result`: the result only if its objective,
/// computed from scratch, is known (`checked`; none when the budget cut the check short) and no higher
/// than `input_objective` (lower, with `must_lower`), and then `report.objective` holds it.
/// Under MCL an equal objective keeps the result, whose routes the last phase shortened.
Mapping checked_result(const Mapping& input, const Mapping& result, std::optional<double> checked,
                       double input_objective, bool must_lower, RefineReport& report);

/// map_refine, filling `report`. With `known`, refine does not route the input's flows only to learn
/// its objective: under MCL it sets up its routed search on the input only if it does not first
/// descend on hop-bytes to another mapping. Once `stop` (none: never) is set, the search ends as at
/// its budget's end (the phases left find their time spent) and its result is checked as then.
Mapping refine_mapping(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options,
                       RefineReport& report, const KnownInput* known = nullptr,
                       const std::atomic<bool>* stop = nullptr);

}  // namespace rankmap::mapping::detail
