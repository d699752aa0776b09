// The portfolio behind `auto`, open to members that only the offline library has.
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include <span>
#include <string_view>

namespace rankmap::mapping::detail {

/// One start of the portfolio.
struct PortfolioMember {
  std::string_view name;       ///< how the winner is reported, e.g. `rahtm:milp=off`
  MapFunction map;
  std::string_view parameter;  ///< passed as MapOptions::parameter
  double budget_share = 0;     ///< of the whole budget, for a member that searches (0: it ignores the budget)
  /// A member that ignores the budget and grows slow runs only with at least this budget and at most
  /// this many tasks (0: no limit).
  double min_budget_ms = 0;
  TaskId max_tasks = 0;
};

/// auto with the core members plus `extra` (built after them, refined like them).
Mapping map_portfolio(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options,
                      std::span<const PortfolioMember> extra);

}  // namespace rankmap::mapping::detail
