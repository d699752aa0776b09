// RAHTM, routing-aware hierarchical task mapping (Abdel-Gawad, Thottethodi, Bhatele, SC'14).
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include <string>

namespace rankmap::rahtm {

/// What one run did, for reports and tests.
struct RahtmReport {
  std::string clustering;       ///< `tiling ...` or `metis`
  bool short_dims_first = false;  ///< which hierarchy won (see params.hpp, `uneven`)
  int hierarchies = 0;          ///< how many hierarchies were tried
  int cube_problems = 0;        ///< cube problems over all levels
  int cube_solved = 0;          ///< distinct ones (the rest reused a solution)
  int cube_proven = 0;          ///< distinct ones CBC proved optimal
  double mcl = 0;               ///< MCL of the result under options.routing
};

/// Clustering (phase 1), top-down cube mapping (phase 2) and bottom-up merging (phase 3); see
/// docs/rahtm.md. `options.parameter` holds `key=value,...` (params.hpp); `options.threads`
/// threads solve cube problems and score merge candidates; `options.progress` hears the
/// fraction done. `options.time_budget_ms` is not used: the effort is set by deterministic
/// limits so that a seed always gives the same mapping.
mapping::Mapping run_rahtm(const graph::CommGraph& graph, const topology::Allocation& alloc,
                           const mapping::MapOptions& options, RahtmReport* report = nullptr);

}  // namespace rankmap::rahtm
