// The root's decision for one reorder: which mapping, its quality against the identity, and whether to apply it.
#pragma once

#include "config.hpp"
#include "placement.hpp"

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/mapping/mapping.hpp>

#include <string>
#include <string_view>

namespace rankmap::runtime {

struct Decision {
  bool applied = false;
  mapping::Mapping slot_of;  ///< the mapping used: the candidate when applied, else the identity
  std::string algorithm;     ///< what produced the candidate
  std::string objective;     ///< mcl, hopbytes, or offnode when only nodes are known
  double before = 0;         ///< the objective of the identity
  double after = 0;          ///< the objective of the candidate
  double seconds = 0;        ///< time spent deciding
  std::string note;          ///< why the candidate was not applied, or what was refused on the way
};

/// Computes a candidate mapping of `graph` onto `placement` (graph.num_tasks() == slots): a
/// matching RANKMAP_MAPPING file if there is one, else concentration when only nodes are known,
/// else the RANKMAP_ALGO chain (auto: the portfolio, whose winner is named in
/// Decision::algorithm as `auto(split+refine)`) followed by the socket order within nodes. It
/// applies it only if it lowers the objective by more than config.min_gain relative to the
/// identity ("do no harm"). Deterministic except for time-budgeted searches, so it runs on one
/// rank, with config.threads threads (mapping_threads()). Throws InputError for unusable settings (for example a dor order that does not fit the grid).
Decision decide(const graph::CommGraph& graph, const Placement& placement, const Config& config);

}  // namespace rankmap::runtime
