// RAHTM, routing-aware hierarchical task mapping (Abdel-Gawad, Thottethodi, Bhatele, SC'14).
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include <string>

namespace rankmap::rahtm {

/// The share of the time budget for clustering and top-down mapping. Not tuned: half, so that
/// a run cut short by its budget still merges.
inline constexpr double kTopDownBudgetShare = 0.5;

/// What one run did, for reports and tests.
struct RahtmReport {
  std::string clustering;       ///< `tiling ...` or `metis`
  bool short_dims_first = false;  ///< which hierarchy won (see params.hpp, `uneven`)
  int cube_dims = 0;              ///< and its most dimensions halved per level (`cube`, `cube-sizes`)
  int hierarchies = 0;          ///< how many hierarchies were mapped
  int hierarchies_skipped = 0;  ///< how many more the time budget left out
  int cube_problems = 0;        ///< cube problems over all levels
  int cube_solved = 0;          ///< distinct ones (the rest reused a solution)
  int cube_proven = 0;          ///< distinct ones CBC proved optimal
  int cube_too_large = 0;       ///< distinct ones too large for the MILP (local search only)
  int milp_skipped = 0;         ///< distinct ones whose MILP the time budget skipped (local search only)
  int narrowest_beam = 0;       ///< the smallest beam of any merge (the `beam` parameter unless narrowed)
  int merges_cut = 0;           ///< block merges the time budget stopped or skipped
  double mcl = 0;               ///< MCL of the result under options.routing
};

/// Clustering (phase 1), top-down cube mapping (phase 2) and bottom-up merging (phase 3); see
/// docs/rahtm.md. `options.parameter` holds `key=value,...` (params.hpp); `options.threads`
/// threads solve cube problems and score merge candidates; `options.progress` hears the
/// fraction done.
///
/// `options.time_budget_ms` bounds the run. Phases 1 and 2 get the first kTopDownBudgetShare of
/// it: a hierarchy after the first starts only if what is left of it covers one more like the
/// last, cube problems get their MILP (with CBC stopped at its end) and their local search's kicks
/// only within it, and METIS partitions and the tiling search stop at its end. Merging gets the rest:
/// each hierarchy's merges an equal share, the beam narrowed so that the merges left fit the time
/// left, and a merge the deadline stops keeps the top-down placement. The result is always a
/// valid mapping, and the run ends within the budget plus one MCL evaluation (of each hierarchy
/// merged in the last wave, which run in parallel). With a budget that no limit reaches, a seed
/// always gives the same mapping.
mapping::Mapping run_rahtm(const graph::CommGraph& graph, const topology::Allocation& alloc,
                           const mapping::MapOptions& options, RahtmReport* report = nullptr);

}  // namespace rankmap::rahtm
