// The files of RANKMAP_PROFILE, written by rank 0 from the counts every process gathered to it.
#pragma once

#include "placement.hpp"
#include "traffic_counts.hpp"

#include <rankmap/graph/profile_summary.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rankmap::runtime {

/// One process's count towards one destination in one phase, as gathered to rank 0.
struct SentTraffic {
  int source = 0;
  int phase = 1;
  int destination = 0;
  PeerTraffic traffic;
};

/// Everything rank 0 holds at MPI_Finalize.
struct GatheredProfile {
  int processes = 0;
  int phases = 1;  ///< 1 without RANKMAP_PROFILE_PHASES
  /// How the phases were found (RANKMAP_PROFILE_PHASES). Phase files are written unless none, and
  /// the summary names it, so that `rankmap place` knows whether the program marked them itself.
  graph::PhaseOrigin phase_origin = graph::PhaseOrigin::none;
  std::vector<SentTraffic> sends;            ///< world ranks, any order
  std::vector<CollectiveCount> collectives;  ///< summed over processes, one per (operation, size)
  std::optional<Placement> placement;        ///< the world placement, when every process was located
  std::vector<std::string> node_hosts;       ///< the host of each node of the placement
  std::string placement_failure;             ///< why there is no placement
};

/// Writes PREFIX.mtx (bytes, all phases), PREFIX.phase<k>.mtx, PREFIX.summary and, with a
/// placement, PREFIX.coords, PREFIX.hosts and (only when the launcher did not put each node's
/// ranks one after another) PREFIX.launch.map. Returns the line rank 0 reports. Throws
/// InputError naming the file that could not be written.
std::string write_profile(const std::string& prefix, const GatheredProfile& profile);

}  // namespace rankmap::runtime
