// The addresses of the Fortran weight sentinels, found by name at call time in the loaded MPI libraries.
#include "fortran_weights.hpp"

#include <dlfcn.h>

namespace rankmap::pmpi {

namespace {

/// The address of a global symbol, as every other library resolves it; null if absent.
const void* symbol_address(const char* name) { return dlsym(RTLD_DEFAULT, name); }

#ifdef OPEN_MPI
// Open MPI: mpif.h, `use mpi` and `use mpi_f08` all pass the address of one common block.
const void* unweighted_address(FortranBinding) { return symbol_address("mpi_fortran_unweighted_"); }
const void* weights_empty_address(FortranBinding) { return symbol_address("mpi_fortran_weights_empty_"); }
#else
// MPICH: mpif.h and `use mpi` record the common block's address in MPIR_F_MPI_UNWEIGHTED when the
// Fortran layer initialises (mpirinitf_); mpi_f08 passes the address of a module variable.
const void* recorded_address(const char* pointer_name) {
  using Init = void (*)();
  const auto* need_init = static_cast<const int*>(symbol_address("MPIR_F_NeedInit"));
  if (need_init && *need_init)
    if (const auto init = reinterpret_cast<Init>(symbol_address("mpirinitf_"))) init();
  const auto* pointer = static_cast<void* const*>(symbol_address(pointer_name));
  return pointer ? *pointer : nullptr;
}

const void* unweighted_address(FortranBinding binding) {
  return binding == FortranBinding::f08 ? symbol_address("__mpi_f08_link_constants_MOD_mpi_unweighted")
                                        : recorded_address("MPIR_F_MPI_UNWEIGHTED");
}
const void* weights_empty_address(FortranBinding binding) {
  return binding == FortranBinding::f08 ? symbol_address("__mpi_f08_link_constants_MOD_mpi_weights_empty")
                                        : recorded_address("MPIR_F_MPI_WEIGHTS_EMPTY");
}
#endif

}  // namespace

const int* c_weights(const MPI_Fint* weights, FortranBinding binding) {
  if (weights && weights == unweighted_address(binding)) return MPI_UNWEIGHTED;
  if (weights && weights == weights_empty_address(binding)) return MPI_WEIGHTS_EMPTY;
  return weights;
}

}  // namespace rankmap::pmpi
