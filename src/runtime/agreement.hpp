// The one MPI_Allreduce every reordering call starts with: valid arguments, same settings, a placement.
#pragma once

#include "validate.hpp"

#include <mpi.h>

#include <cstdint>
#include <string>

namespace rankmap::runtime {

/// What every process learns, identically, before anything else happens.
struct Agreement {
  bool invalid = false;           ///< some process has erroneous arguments: raise MPI_ERR_ARG everywhere
  std::string fallback;           ///< non-empty: do the plain call everywhere, for this reason
  bool gather_placement = false;  ///< no world placement: gather one on the communicator
};

/// One MPI_Allreduce (MPI_MIN) of a dozen ints over `comm`: each process's argument check,
/// whether it has MPI_UNWEIGHTED and real weights, the hash of arguments that must be identical
/// everywhere (`args_hash`, 0 when none), the settings' hash and validity, local preparation
/// failures, and the state of the world placement.
Agreement agree(MPI_Comm comm, const LocalCheck& check, bool prepared, std::uint64_t args_hash);

}  // namespace rankmap::runtime
