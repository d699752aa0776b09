// MPI_Finalize and MPI_Pcontrol, in C and in the Fortran manglings whose MPI binding bypasses the C layer.
#include "fortran_next.hpp"
#include "interpose.hpp"

#include "profiler.hpp"

namespace profiler = rankmap::runtime::profiler;
using rankmap::pmpi::ReentryGuard;

RANKMAP_INTERPOSE int MPI_Finalize() {
  const ReentryGuard guard;
  if (guard.outermost()) profiler::finish();
  return PMPI_Finalize();
}

RANKMAP_INTERPOSE int MPI_Pcontrol(const int level, ...) {
  const ReentryGuard guard;
  if (guard.outermost()) profiler::pcontrol();
  return PMPI_Pcontrol(level);
}

namespace {

using FortranFinalize = void (*)(MPI_Fint* ierr);
using FortranPcontrol = void (*)(MPI_Fint* level);

void fortran_finalize(FortranFinalize next, MPI_Fint* ierr) {
  const ReentryGuard guard;
  profiler::finish();
  rankmap::pmpi::call_next(next, ierr, [&](MPI_Fint* code) { next(code); });
}

/// MPI_PCONTROL has no error argument.
void fortran_pcontrol(FortranPcontrol next, MPI_Fint* level) {
  const ReentryGuard guard;
  profiler::pcontrol();
  if (next) next(level);
}

}  // namespace

#define RANKMAP_F_FINALIZE(symbol)                                                  \
  RANKMAP_INTERPOSE void symbol(MPI_Fint* ierr) {                                   \
    static const auto next = rankmap::pmpi::next_fortran<FortranFinalize>(#symbol); \
    fortran_finalize(next, ierr);                                                   \
  }
#define RANKMAP_F_PCONTROL(symbol)                                                  \
  RANKMAP_INTERPOSE void symbol(MPI_Fint* level) {                                  \
    static const auto next = rankmap::pmpi::next_fortran<FortranPcontrol>(#symbol); \
    fortran_pcontrol(next, level);                                                  \
  }
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_FINALIZE, MPI_FINALIZE, mpi_finalize)
RANKMAP_FORTRAN_BYPASSING(RANKMAP_F_PCONTROL, MPI_PCONTROL, mpi_pcontrol)
