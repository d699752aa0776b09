// MPI_Init and MPI_Init_thread, in C and in every Fortran mangling, sharing one body.
#include "fortran_next.hpp"
#include "interpose.hpp"

#include "profiler.hpp"
#include "state.hpp"

namespace rankmap::pmpi {

void after_init(const ReentryGuard& guard) noexcept {
  if (!guard.outermost()) return;
  int initialized = 0;
  PMPI_Initialized(&initialized);
  if (!initialized) return;
  try {
    runtime::initialize_world();
  } catch (...) {
    // initialize_world() reports its own failures; nothing may escape into the application.
  }
  runtime::profiler::start();
}

namespace {

using FortranInit = void (*)(MPI_Fint* ierr);
using FortranInitThread = void (*)(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr);

/// Fortran MPI_INIT ends in the library's Fortran PMPI_INIT, which also sets up its Fortran
/// layer (constants such as MPI_UNWEIGHTED); `ierr` may be null only for mpi_f08.
void fortran_init(MPI_Fint* ierr, const char* pmpi_name, const char* mpi_name) {
  const ReentryGuard guard;
  if (const auto next = next_fortran<FortranInit>(pmpi_name, mpi_name)) {
    next(ierr);
  } else {
    const int rc = PMPI_Init(nullptr, nullptr);
    if (ierr) *ierr = rc;
  }
  after_init(guard);
}

void fortran_init_thread(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr, const char* pmpi_name,
                         const char* mpi_name) {
  const ReentryGuard guard;
  if (const auto next = next_fortran<FortranInitThread>(pmpi_name, mpi_name)) {
    next(required, provided, ierr);
  } else {
    int given = 0;
    const int rc = PMPI_Init_thread(nullptr, nullptr, *required, &given);
    *provided = given;
    if (ierr) *ierr = rc;
  }
  after_init(guard);
}

}  // namespace

}  // namespace rankmap::pmpi

using rankmap::pmpi::ReentryGuard;

RANKMAP_INTERPOSE int MPI_Init(int* argc, char*** argv) {
  const ReentryGuard guard;
  const int rc = PMPI_Init(argc, argv);
  rankmap::pmpi::after_init(guard);
  return rc;
}

RANKMAP_INTERPOSE int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const ReentryGuard guard;
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  rankmap::pmpi::after_init(guard);
  return rc;
}

#define RANKMAP_FORTRAN_INIT(symbol, pmpi_name, mpi_name) \
  RANKMAP_INTERPOSE void symbol(MPI_Fint* ierr) { rankmap::pmpi::fortran_init(ierr, pmpi_name, mpi_name); }
RANKMAP_FORTRAN_INIT(MPI_INIT, "PMPI_INIT", "MPI_INIT")
RANKMAP_FORTRAN_INIT(mpi_init, "pmpi_init", "mpi_init")
RANKMAP_FORTRAN_INIT(mpi_init_, "pmpi_init_", "mpi_init_")
RANKMAP_FORTRAN_INIT(mpi_init__, "pmpi_init__", "mpi_init__")
RANKMAP_FORTRAN_INIT(mpi_init_f08_, "pmpi_init_f08_", "mpi_init_f08_")

#define RANKMAP_FORTRAN_INIT_THREAD(symbol, pmpi_name, mpi_name)                          \
  RANKMAP_INTERPOSE void symbol(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) { \
    rankmap::pmpi::fortran_init_thread(required, provided, ierr, pmpi_name, mpi_name);   \
  }
RANKMAP_FORTRAN_INIT_THREAD(MPI_INIT_THREAD, "PMPI_INIT_THREAD", "MPI_INIT_THREAD")
RANKMAP_FORTRAN_INIT_THREAD(mpi_init_thread, "pmpi_init_thread", "mpi_init_thread")
RANKMAP_FORTRAN_INIT_THREAD(mpi_init_thread_, "pmpi_init_thread_", "mpi_init_thread_")
RANKMAP_FORTRAN_INIT_THREAD(mpi_init_thread__, "pmpi_init_thread__", "mpi_init_thread__")
RANKMAP_FORTRAN_INIT_THREAD(mpi_init_thread_f08_, "pmpi_init_thread_f08_", "mpi_init_thread_f08_")
