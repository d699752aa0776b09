// The Fortran topology constructors (mpif.h, `use mpi`, `use mpi_f08`) in every mangling, one body each.
#include "fortran_weights.hpp"
#include "interpose.hpp"

#include "engine.hpp"
#include "exception_status.hpp"

#include <vector>

namespace rankmap::pmpi {

namespace {

// Fortran passes every argument by reference: handles as MPI_Fint, LOGICAL as a 4-byte integer
// that is nonzero for .TRUE., arrays as pointers. `ierr` is null when mpi_f08 omits it.

void finish(int rc, MPI_Comm result, MPI_Fint* newcomm, MPI_Fint* ierr) {
  *newcomm = PMPI_Comm_c2f(result);
  if (ierr) *ierr = rc;
}

using runtime::call_engine_or_plain;

void dist_graph_create_adjacent(MPI_Fint* comm, MPI_Fint* indegree, MPI_Fint* sources, MPI_Fint* sourceweights,
                                MPI_Fint* outdegree, MPI_Fint* destinations, MPI_Fint* destweights, MPI_Fint* info,
                                MPI_Fint* reorder, MPI_Fint* newcomm, MPI_Fint* ierr, FortranBinding binding) {
  const ReentryGuard guard;
  MPI_Comm result = MPI_COMM_NULL;
  const int rc = call_engine_or_plain(
      [&] {
        return runtime::dist_graph_create_adjacent(
            runtime::Origin::interposed, PMPI_Comm_f2c(*comm), *indegree, sources, c_weights(sourceweights, binding),
            *outdegree, destinations, c_weights(destweights, binding), PMPI_Info_f2c(*info), *reorder != 0, &result);
      },
      [&] {
        return PMPI_Dist_graph_create_adjacent(PMPI_Comm_f2c(*comm), *indegree, sources,
                                               c_weights(sourceweights, binding), *outdegree, destinations,
                                               c_weights(destweights, binding), PMPI_Info_f2c(*info), *reorder,
                                               &result);
      });
  finish(rc, result, newcomm, ierr);
}

void dist_graph_create(MPI_Fint* comm, MPI_Fint* n, MPI_Fint* sources, MPI_Fint* degrees, MPI_Fint* destinations,
                       MPI_Fint* weights, MPI_Fint* info, MPI_Fint* reorder, MPI_Fint* newcomm, MPI_Fint* ierr,
                       FortranBinding binding) {
  const ReentryGuard guard;
  MPI_Comm result = MPI_COMM_NULL;
  const int rc = call_engine_or_plain(
      [&] {
        return runtime::dist_graph_create(runtime::Origin::interposed, PMPI_Comm_f2c(*comm), *n, sources, degrees,
                                          destinations, c_weights(weights, binding), PMPI_Info_f2c(*info),
                                          *reorder != 0, &result);
      },
      [&] {
        return PMPI_Dist_graph_create(PMPI_Comm_f2c(*comm), *n, sources, degrees, destinations,
                                      c_weights(weights, binding), PMPI_Info_f2c(*info), *reorder, &result);
      });
  finish(rc, result, newcomm, ierr);
}

/// LOGICAL periods as C's 0 or 1 (nonzero .TRUE. values differ between compilers). Should the copy
/// fail, the Fortran values themselves, which C reads alike (nonzero is true), so that this process
/// never fails alone before the engine's agreement.
const int* c_periods(const MPI_Fint* ndims, const MPI_Fint* periods, std::vector<int>& copy) noexcept {
  try {
    copy.assign(static_cast<std::size_t>(*ndims > 0 ? *ndims : 0), 0);
    for (std::size_t d = 0; d < copy.size(); ++d) copy[d] = periods[d] != 0;
    return copy.data();
  } catch (...) {
    return periods;
  }
}

void cart_create(MPI_Fint* comm, MPI_Fint* ndims, MPI_Fint* dims, MPI_Fint* periods, MPI_Fint* reorder,
                 MPI_Fint* newcomm, MPI_Fint* ierr) {
  const ReentryGuard guard;
  MPI_Comm result = MPI_COMM_NULL;
  std::vector<int> copy;
  const int* periodic = c_periods(ndims, periods, copy);
  const int rc = call_engine_or_plain(
      [&] {
        return runtime::cart_create(runtime::Origin::interposed, PMPI_Comm_f2c(*comm), *ndims, dims, periodic,
                                    *reorder != 0, &result);
      },
      [&] { return PMPI_Cart_create(PMPI_Comm_f2c(*comm), *ndims, dims, periodic, *reorder, &result); });
  finish(rc, result, newcomm, ierr);
}

void graph_create(MPI_Fint* comm, MPI_Fint* nnodes, MPI_Fint* index, MPI_Fint* edges, MPI_Fint* reorder,
                  MPI_Fint* newcomm, MPI_Fint* ierr) {
  const ReentryGuard guard;
  MPI_Comm result = MPI_COMM_NULL;
  const int rc = call_engine_or_plain(
      [&] {
        return runtime::graph_create(runtime::Origin::interposed, PMPI_Comm_f2c(*comm), *nnodes, index, edges,
                                     *reorder != 0, &result);
      },
      [&] { return PMPI_Graph_create(PMPI_Comm_f2c(*comm), *nnodes, index, edges, *reorder, &result); });
  finish(rc, result, newcomm, ierr);
}

}  // namespace

}  // namespace rankmap::pmpi

using rankmap::pmpi::FortranBinding;

#define RANKMAP_F_DIST_GRAPH_CREATE_ADJACENT(symbol, binding)                                                  \
  RANKMAP_INTERPOSE void symbol(MPI_Fint* comm, MPI_Fint* indegree, MPI_Fint* sources, MPI_Fint* sourceweights, \
                                MPI_Fint* outdegree, MPI_Fint* destinations, MPI_Fint* destweights,            \
                                MPI_Fint* info, MPI_Fint* reorder, MPI_Fint* newcomm, MPI_Fint* ierr) {        \
    rankmap::pmpi::dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations,   \
                                              destweights, info, reorder, newcomm, ierr, binding);              \
  }
RANKMAP_F_DIST_GRAPH_CREATE_ADJACENT(MPI_DIST_GRAPH_CREATE_ADJACENT, FortranBinding::mpif)
RANKMAP_F_DIST_GRAPH_CREATE_ADJACENT(mpi_dist_graph_create_adjacent, FortranBinding::mpif)
RANKMAP_F_DIST_GRAPH_CREATE_ADJACENT(mpi_dist_graph_create_adjacent_, FortranBinding::mpif)
RANKMAP_F_DIST_GRAPH_CREATE_ADJACENT(mpi_dist_graph_create_adjacent__, FortranBinding::mpif)
RANKMAP_F_DIST_GRAPH_CREATE_ADJACENT(mpi_dist_graph_create_adjacent_f08_, FortranBinding::f08)

#define RANKMAP_F_DIST_GRAPH_CREATE(symbol, binding)                                                            \
  RANKMAP_INTERPOSE void symbol(MPI_Fint* comm, MPI_Fint* n, MPI_Fint* sources, MPI_Fint* degrees,               \
                                MPI_Fint* destinations, MPI_Fint* weights, MPI_Fint* info, MPI_Fint* reorder,    \
                                MPI_Fint* newcomm, MPI_Fint* ierr) {                                            \
    rankmap::pmpi::dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder, newcomm, ierr, \
                                     binding);                                                                  \
  }
RANKMAP_F_DIST_GRAPH_CREATE(MPI_DIST_GRAPH_CREATE, FortranBinding::mpif)
RANKMAP_F_DIST_GRAPH_CREATE(mpi_dist_graph_create, FortranBinding::mpif)
RANKMAP_F_DIST_GRAPH_CREATE(mpi_dist_graph_create_, FortranBinding::mpif)
RANKMAP_F_DIST_GRAPH_CREATE(mpi_dist_graph_create__, FortranBinding::mpif)
RANKMAP_F_DIST_GRAPH_CREATE(mpi_dist_graph_create_f08_, FortranBinding::f08)

#define RANKMAP_F_CART_CREATE(symbol)                                                                       \
  RANKMAP_INTERPOSE void symbol(MPI_Fint* comm, MPI_Fint* ndims, MPI_Fint* dims, MPI_Fint* periods,         \
                                MPI_Fint* reorder, MPI_Fint* newcomm, MPI_Fint* ierr) {                     \
    rankmap::pmpi::cart_create(comm, ndims, dims, periods, reorder, newcomm, ierr);                         \
  }
RANKMAP_F_CART_CREATE(MPI_CART_CREATE)
RANKMAP_F_CART_CREATE(mpi_cart_create)
RANKMAP_F_CART_CREATE(mpi_cart_create_)
RANKMAP_F_CART_CREATE(mpi_cart_create__)
RANKMAP_F_CART_CREATE(mpi_cart_create_f08_)

#define RANKMAP_F_GRAPH_CREATE(symbol)                                                                      \
  RANKMAP_INTERPOSE void symbol(MPI_Fint* comm, MPI_Fint* nnodes, MPI_Fint* index, MPI_Fint* edges,         \
                                MPI_Fint* reorder, MPI_Fint* newcomm, MPI_Fint* ierr) {                     \
    rankmap::pmpi::graph_create(comm, nnodes, index, edges, reorder, newcomm, ierr);                        \
  }
RANKMAP_F_GRAPH_CREATE(MPI_GRAPH_CREATE)
RANKMAP_F_GRAPH_CREATE(mpi_graph_create)
RANKMAP_F_GRAPH_CREATE(mpi_graph_create_)
RANKMAP_F_GRAPH_CREATE(mpi_graph_create__)
RANKMAP_F_GRAPH_CREATE(mpi_graph_create_f08_)
