// Fortran MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY: recognising each MPI's sentinel addresses.
#pragma once

#include <mpi.h>

namespace rankmap::pmpi {

/// Which Fortran binding a call came through; MPICH uses different sentinels for mpi_f08.
enum class FortranBinding { mpif, f08 };

/// The C weights argument for a Fortran one: MPI_UNWEIGHTED or MPI_WEIGHTS_EMPTY when `weights`
/// is the address of the Fortran constant, else `weights` itself.
const int* c_weights(const MPI_Fint* weights, FortranBinding binding);

}  // namespace rankmap::pmpi
