// Solves a level's cube problems: canonical forms, a cache of solutions, local search, then the MILP.
#pragma once

#include "cube_milp.hpp"
#include "cube_search.hpp"

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace rankmap::rahtm {

/// A relabelling of a problem's clusters that makes equal cluster graphs equal byte for byte.
///
/// Clusters are sorted by a signature (size, bytes out, bytes in, sorted edge weights), ties
/// kept in their original order; `key` then holds the cube and the traffic matrix in that order.
/// Tiled clusters come in tile order, so identical tiles (the interior of a stencil) give
/// identical keys; graphs that are isomorphic but labelled differently may not.
struct CanonicalForm {
  std::vector<int> order;  ///< canonical position i holds cluster order[i]
  std::string key;
};
CanonicalForm canonical_form(const CubeProblem& problem);

struct CubeSolverOptions {
  CubeSearchOptions search;
  CubeMilpOptions milp;
  bool use_milp = true;
  /// Problems whose MILP would have more columns keep the local search's answer: CBC would not
  /// finish their root LP in reasonable time, let alone prove anything.
  std::int64_t max_milp_columns = 5000;
  int threads = 1;
  /// Optional: the local search's kicks stop at it, a MILP starts only before it (the problem
  /// then keeps the local search's answer, as with use_milp false) and CBC stops at it.
  const mapping::Deadline* deadline = nullptr;
};

struct CubeSolverStats {
  int problems = 0;  ///< problems asked for
  int solved = 0;    ///< distinct problems solved (the rest came from the cache)
  int proven = 0;    ///< of those, proven optimal by CBC
  int too_large = 0; ///< of those, too large for the MILP (local search only)
  int milp_skipped = 0;  ///< of those, whose MILP the deadline skipped (local search only)
};

class CubeSolver {
 public:
  explicit CubeSolver(CubeSolverOptions options) : options_(options) {}

  /// A placement for every problem. Problems with the same canonical form, in this call or an
  /// earlier one, share one solve; distinct ones are solved in parallel. `report(done, total)`
  /// runs on the calling thread.
  std::vector<CubePlacement> solve_all(const std::vector<CubeProblem>& problems,
                                       const std::function<void(std::size_t, std::size_t)>& report = {});

  const CubeSolverStats& stats() const { return stats_; }

 private:
  /// `milp_skipped` becomes true if the deadline left no time for the MILP.
  CubePlacement solve_one(const CubeProblem& canonical, bool& milp_skipped) const;

  CubeSolverOptions options_;
  std::unordered_map<std::string, CubePlacement> cache_;  ///< canonical key -> canonical placement
  CubeSolverStats stats_;
};

/// The problem with its clusters in canonical order.
CubeProblem reorder_clusters(const CubeProblem& problem, const std::vector<int>& order);

}  // namespace rankmap::rahtm
