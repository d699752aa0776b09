# Finds every third-party dependency once, as imported targets, so that the
# rest of the build only names targets.

find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(Boost 1.74 REQUIRED)  # Boost.Graph is header-only
pkg_check_modules(HWLOC REQUIRED IMPORTED_TARGET hwloc)
# METIS is a small C library without further dependencies; the core uses it to concentrate
# tasks into nodes when the graph has no grid structure.
find_path(METIS_INCLUDE_DIR metis.h REQUIRED)
find_library(METIS_LIBRARY metis REQUIRED)

# Debian installs both MPIs side by side; pick the wrappers and launcher of the
# requested one so that FindMPI cannot mix them.
if(RANKMAP_MPI STREQUAL "openmpi")
  set(_rankmap_mpi_suffix openmpi)
  set(RANKMAP_PC_MPI ompi-c)
else()
  set(_rankmap_mpi_suffix mpich)
  set(RANKMAP_PC_MPI mpich)
endif()
find_program(MPI_C_COMPILER NAMES mpicc.${_rankmap_mpi_suffix} REQUIRED)
find_program(MPI_CXX_COMPILER NAMES mpicxx.${_rankmap_mpi_suffix} REQUIRED)
find_program(MPIEXEC_EXECUTABLE NAMES mpiexec.${_rankmap_mpi_suffix} REQUIRED)
set(_rankmap_mpi_langs C CXX)
if(RANKMAP_WITH_FORTRAN)
  enable_language(Fortran)
  find_program(MPI_Fortran_COMPILER NAMES mpifort.${_rankmap_mpi_suffix} REQUIRED)
  list(APPEND _rankmap_mpi_langs Fortran)
endif()
set(MPI_CXX_SKIP_MPICXX ON)
find_package(MPI REQUIRED COMPONENTS ${_rankmap_mpi_langs})

# Flags every mpiexec invocation of the tests and examples needs: CI runs as
# root, and tests run more ranks than the machine has cores.
if(RANKMAP_MPI STREQUAL "openmpi")
  set(RANKMAP_MPIEXEC_FLAGS --oversubscribe --allow-run-as-root --mca btl self,vader --bind-to none)
else()
  set(RANKMAP_MPIEXEC_FLAGS)
endif()

if(RANKMAP_BUILD_TOOLS OR RANKMAP_BUILD_BENCH)
  pkg_check_modules(CBC REQUIRED IMPORTED_TARGET cbc)
  find_path(SCOTCH_INCLUDE_DIR scotch.h PATH_SUFFIXES scotch REQUIRED)
  find_library(SCOTCH_LIBRARY scotch REQUIRED)
  find_library(SCOTCHERR_LIBRARY scotcherr REQUIRED)
  add_library(rankmap_dep_scotch INTERFACE)
  target_include_directories(rankmap_dep_scotch INTERFACE ${SCOTCH_INCLUDE_DIR})
  target_link_libraries(rankmap_dep_scotch INTERFACE ${SCOTCH_LIBRARY} ${SCOTCHERR_LIBRARY})
  find_package(CLI11 REQUIRED)
  find_package(nlohmann_json 3 REQUIRED)
endif()

if(RANKMAP_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(RANKMAP_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()
