// The one MPI_Allreduce every reordering call starts with: valid arguments, same settings, a placement.
#pragma once

#include "validate.hpp"

#include <mpi.h>

#include <cstdint>
#include <string>

namespace rankmap::runtime {

/// What every process learns, identically, before anything else happens.
struct Agreement {
  /// Why every process makes the plain call, if it must.
  enum class Fallback { none, settings_differ, bad_setting, not_prepared, partial_init, no_placement, mpi_error };
  bool invalid = false;           ///< some process has erroneous arguments: raise MPI_ERR_ARG everywhere
  Fallback fallback = Fallback::none;
  int unprepared_rank = -1;       ///< not_prepared: the lowest rank that failed to prepare
  bool gather_placement = false;  ///< no world placement: gather one on the communicator
};

/// One MPI_Allreduce (MPI_MIN) of a dozen ints over `comm`: each process's argument check,
/// whether it has MPI_UNWEIGHTED and real weights, the hash of arguments that must be identical
/// everywhere (`args_hash`, 0 when none), the settings' hash and validity, the lowest rank that
/// failed to prepare (step prepare), and the state of the world placement. Never throws, so that
/// every process that enters it leaves it with the others.
Agreement agree(MPI_Comm comm, const LocalCheck& check, bool prepared, std::uint64_t args_hash) noexcept;

/// The note of an agreed fall-back ("the RANKMAP_* settings differ between processes", ...).
std::string fallback_note(const Agreement& agreement);

}  // namespace rankmap::runtime
