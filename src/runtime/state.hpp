// The process-wide runtime state: configuration, this process's location, and the world placement.
#pragma once

#include "config.hpp"
#include "placement.hpp"

#include <mpi.h>

#include <optional>
#include <string>

namespace rankmap::runtime {

/// Written once (configuration on first use, world placement in MPI_Init), read-only afterwards.
struct RuntimeState {
  ConfigResult config;
  bool world_initialised = false;     ///< the interposed MPI_Init made its exchange
  bool world_settings_agree = false;  ///< every process of MPI_COMM_WORLD has the same RANKMAP_* values
  PlacementResult world;              ///< valid when world_initialised

  /// The preload layer does anything beyond passing calls through: the init exchange found the
  /// same valid settings everywhere, and RANKMAP_DISABLE is not set. The same on every process.
  bool active() const { return world_initialised && world_settings_agree && config.ok() && !config.config.disable; }
};

/// The state; reads the environment on the first call. Needs MPI to be initialised.
const RuntimeState& runtime_state();

/// For the interposed MPI_Init, right after PMPI_Init succeeded: reports bad settings once on rank 0
/// and gathers every process's record (settings hash, and its location unless disabled) with one
/// MPI_Allgather on MPI_COMM_WORLD. The exchange happens whatever the settings, so that processes
/// with different settings (RANKMAP_DISABLE on some only) cannot take different collective paths.
/// Runs once per process; never throws.
void initialize_world();

/// The placement of `comm`'s processes as a translation of its ranks into the world placement
/// (local, needs one). The result, or the failure, is the same on every process.
PlacementResult world_placement_of(MPI_Comm comm);

/// This process's record for an exchange of placements (the C API without the preload layer);
/// reports bad settings once on rank 0.
ProcessRecord own_record();

/// The placement from the records of every process of `comm`, the same on every process. When a
/// record carries an error, the failing process's message travels to rank 0 first: collective on
/// comm then, and that exchange happens on every process and never throws. Building the placement
/// afterwards may throw (out of memory).
PlacementResult placement_from_records_of(MPI_Comm comm, std::span<const ProcessRecord> records);

/// Where the calling process runs, located once on first use, or the provider's error.
struct LocalLocation {
  std::optional<coords::Location> where;
  std::string error;
};
const LocalLocation& local_location();

}  // namespace rankmap::runtime
