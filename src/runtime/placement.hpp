// Where every process of a communicator runs: built from one fixed-size record per process.
#pragma once

#include "provider.hpp"

#include <rankmap/topology/allocation.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rankmap::runtime {

/// What each process contributes to the one allgather at initialisation: O(1) bytes, so O(P) in all.
/// `coords` depend on what the process knows of the network, which `network_hash` tells apart:
/// - a torus or mesh: the node's coordinates;
/// - a fat-tree or dragonfly: [0] is the node's index in it;
/// - a Slurm tree (SLURM_TOPOLOGY_ADDR): [l] hashes the switch names from the top down to level l,
///   so that the placement can rebuild the tree that the processes span (docs/runtime.md).
struct ProcessRecord {
  std::uint64_t node_key = 0;
  std::uint64_t network_hash = 0;  ///< 0 when the process knows only its node
  std::uint64_t config_hash = 0;
  std::int32_t status = 0;         ///< a RecordStatus
  std::int32_t socket = -1;
  std::int32_t coords[topology::kMaxDims] = {};
};

static_assert(sizeof(ProcessRecord) == 64, "docs/runtime.md gives the record's size");

enum RecordStatus : std::int32_t {
  record_ok = 0,
  record_config_error = 1,
  record_provider_error = 2,
  record_disabled = 3,  ///< RANKMAP_DISABLE: the process did not look for its location
  record_failed = 4,    ///< the process could not make its record (out of memory)
};

/// The processes of a communicator (slot s = rank s) on their nodes.
struct Placement {
  /// `network`: the network (a grid, fat-tree or dragonfly, real or emulated) and every process's
  /// node in it are known, and mapping minimises the objective on them.
  /// `nodes_only`: only which processes share a node is known; the grid is a stand-in line of nodes
  /// and only traffic leaving a node is minimised.
  enum class Mode { network, nodes_only };
  Mode mode = Mode::network;
  topology::Allocation alloc;
  std::vector<int> socket_of_slot;  ///< -1 where unknown

  /// The processes `ranks[0..]` of this placement, as slots 0.. of a new one.
  Placement subset(std::span<const int> ranks) const;
  /// The first n slots (a Cartesian or graph topology smaller than its communicator).
  Placement first_slots(SlotId n) const;
};

/// Either a placement every process agrees on, or the reason there is none (the same on every process).
struct PlacementResult {
  std::optional<Placement> placement;
  std::string failure;
  int failing_rank = -1;  ///< the lowest rank whose record carries an error, -1 if none
};

/// The record of the calling process from its location (nullopt when the provider failed).
ProcessRecord make_record(const std::optional<coords::Location>& where, bool config_ok, std::uint64_t config_hash);

/// The rank whose message explains why `records` give no placement (the first with a provider or
/// configuration error, or a failed record), or -1; placement_from_records names the same rank.
int first_failing_record(std::span<const ProcessRecord> records) noexcept;

/// Builds the placement from every process's record. `here` is the caller's own location, whose
/// network every record that knows one must share (they all carry its hash). Deterministic, so all
/// processes agree.
PlacementResult placement_from_records(std::span<const ProcessRecord> records,
                                       const std::optional<coords::Location>& here);

}  // namespace rankmap::runtime
