// One of auto's candidates: a start, refined or annealed, with its score and what was measured of it.
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include "objective_score.hpp"

#include <optional>
#include <string>

namespace rankmap::mapping::detail {

struct Candidate {
  std::string name;
  Mapping mapping;
  Score score;
  std::optional<double> dor_load;  ///< under the network's static routing, once DorHedge measured it
  double scoring_ms = 0;           ///< how long scoring a member's start took (0: not measured)
  /// The channel loads its scoring routed (null for a refined candidate), which refine searches from.
  ObjectiveScorer::Loads loads = nullptr;
  /// Refined while the starts were built, its refined mapping a start of its own: refine_all keeps it
  /// as it is, for the hedge.
  bool settled = false;
};

inline bool score_less(const Candidate& a, const Candidate& b) { return a.score < b.score; }

}  // namespace rankmap::mapping::detail
