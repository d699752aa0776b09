// The rows of the mapping quality table: every registered algorithm, with its budget or cap.
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace rankmap::bench {

/// The fixed settings every row runs with.
struct RowSettings {
  double refine_budget_ms = 2000;  ///< refine alone and in mahd+refine
  double search_budget_ms = 5000;  ///< the other searches that take a budget (emahd, dimorder-best, grasp, ...)
  std::uint64_t seed = 1;
  int threads = 1;  ///< MapOptions::threads of every row (auto, emahd, grasp and rahtm use them; cpu_ms counts the calling thread only)
};

/// One row: a chain run on every instance, or skipped above a task count.
struct Row {
  std::string label;  ///< what the table shows; dimorder rows name the 3D and the 5D order
  double budget_ms = 0;    ///< given to every row; only the searches of kBudgeted use it
  bool budgeted = false;   ///< the chain holds a search that runs until its budget is spent
  TaskId max_tasks = 0;    ///< 0: no cap
  std::string cap_reason;  ///< why instances above max_tasks are skipped
  std::string fixed_chain;  ///< the chain, unless a dimorder row
  std::string traversal;    ///< dimorder rows: the traversal name given to dimension_order()

  /// The chain run on a grid of `ndims` dimensions, e.g. `dimorder:TABC` for `t-first` and 3.
  std::string chain(int ndims) const;
};

/// One row per registered algorithm in registry order; `dimorder` becomes one row per order
/// (the default ABC..T, T first, reversed, interleaved) and `mahd+refine` (the runtime default)
/// follows `refine`. Budgets and caps come from `settings` and from the table in quality_rows.cpp.
std::vector<Row> quality_rows(std::span<const mapping::AlgorithmInfo> algorithms, const RowSettings& settings);

/// The dimension order of a named traversal (`default`, `t-first`, `reversed`, `interleaved`)
/// for a grid of `ndims` dimensions, e.g. ACEBDT for `interleaved` with 5.
std::string dimension_order(std::string_view traversal, int ndims);

}  // namespace rankmap::bench
