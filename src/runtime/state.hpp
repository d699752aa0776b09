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
  bool world_initialised = false;  ///< the interposed MPI_Init gathered the world placement
  PlacementResult world;           ///< valid when world_initialised
};

/// The state; reads the environment on the first call. Needs MPI to be initialised.
const RuntimeState& runtime_state();

/// For the interposed MPI_Init, right after PMPI_Init succeeded: reports bad settings once on rank 0
/// and, unless disabled, gathers every process's location with one MPI_Allgather on MPI_COMM_WORLD.
/// Runs once per process; never throws.
void initialize_world();

/// The placement of `comm`'s processes. With `gather` false it translates `comm`'s ranks into the
/// world placement (local, needs a world placement); with `gather` true (the C API without the
/// preload layer) it is one MPI_Allgather on `comm`, collective. Either way the result, or the
/// failure, is the same on every process.
PlacementResult placement_of(MPI_Comm comm, bool gather);

/// Where the calling process runs, located once on first use, or the provider's error.
struct LocalLocation {
  std::optional<coords::Location> where;
  std::string error;
};
const LocalLocation& local_location();

}  // namespace rankmap::runtime
