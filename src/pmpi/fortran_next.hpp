// Calling on into the MPI library's own Fortran binding, and which manglings each MPI needs interposed.
#pragma once

#include <mpi.h>

#include <dlfcn.h>

namespace rankmap::pmpi {

/// The MPI library's Fortran entry point after this library: `name`, else `fallback` if given.
template <typename Fn>
Fn next_fortran(const char* name, const char* fallback = nullptr) {
  void* f = dlsym(RTLD_NEXT, name);
  if (!f && fallback) f = dlsym(RTLD_NEXT, fallback);
  return reinterpret_cast<Fn>(f);
}

/// Calls the binding with a non-null error argument (mpi_f08 may omit it) and returns the code.
/// A binding that cannot be found (never seen: the program linked against it) fails the call.
template <typename Fn, typename Call>
MPI_Fint call_next(Fn next, MPI_Fint* ierr, Call&& call) {
  MPI_Fint own = MPI_SUCCESS;
  MPI_Fint* code = ierr ? ierr : &own;
  if (next)
    call(code);
  else
    *code = MPI_ERR_INTERN;
  return *code;
}

}  // namespace rankmap::pmpi

// Which Fortran symbols the profiler interposes, per MPI (docs/runtime.md, "Fortran"):
// - Open MPI's bindings (mpif.h, `use mpi`, `use mpi_f08`) call PMPI_* directly, so every profiled
//   call is interposed in all five manglings (RANKMAP_FORTRAN_MANGLINGS, under #ifdef OPEN_MPI);
// - MPICH's bindings call the C MPI_* functions, which the C wrappers see, except the mpi_f08
//   entries without a buffer argument (start, startall, request_free, barrier, ibarrier, pcontrol,
//   finalize), which call PMPI_* and are interposed in their _f08_ mangling only
//   (RANKMAP_FORTRAN_BYPASSING).
#define RANKMAP_FORTRAN_MANGLINGS(macro, UPPER, lower) \
  macro(UPPER) macro(lower) macro(lower##_) macro(lower##__) macro(lower##_f08_)
#ifdef OPEN_MPI
#define RANKMAP_FORTRAN_BYPASSING(macro, UPPER, lower) RANKMAP_FORTRAN_MANGLINGS(macro, UPPER, lower)
#else
#define RANKMAP_FORTRAN_BYPASSING(macro, UPPER, lower) macro(lower##_f08_)
#endif
