! fortran_bindings_test.F90 - the interposed Fortran symbols of `use mpi_f08` (built with -DUSE_F08)
! or of `use mpi`: MPI_Init, MPI_Dist_graph_create_adjacent with MPI_UNWEIGHTED and
! MPI_WEIGHTS_EMPTY, MPI_Dist_graph_create and MPI_Cart_create, all with reorder. Every process
! checks that its new rank's lists are those given for that vertex; rank 0 prints OK.
#ifdef USE_F08
#define COMM type(MPI_Comm)
#else
#define COMM integer
#endif
program fortran_bindings_test
#ifdef USE_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  COMM :: ring, sparse, general, cart
  integer :: nprocs, rank, failures, total, indegree, outdegree, ierr
  integer :: src(1), dst(1), w(1), got_src(2), got_dst(2), got_sw(2), got_dw(2)
  integer :: dims(2), coords(2), back, lower, upper
  logical :: weighted, periods(2)

  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  failures = 0

  ! An unweighted ring: vertex v receives from v-1 and sends to v+1.
  src(1) = modulo(rank - 1, nprocs)
  dst(1) = modulo(rank + 1, nprocs)
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, MPI_UNWEIGHTED, 1, dst, MPI_UNWEIGHTED, &
                                      MPI_INFO_NULL, .true., ring, ierr)
  call MPI_Comm_rank(ring, rank, ierr)
  call MPI_Dist_graph_neighbors_count(ring, indegree, outdegree, weighted, ierr)
  call MPI_Dist_graph_neighbors(ring, 1, got_src, got_sw, 1, got_dst, got_dw, ierr)
  if (indegree /= 1 .or. outdegree /= 1 .or. weighted) failures = failures + 1
  if (got_src(1) /= modulo(rank - 1, nprocs) .or. got_dst(1) /= modulo(rank + 1, nprocs)) failures = failures + 1
  call MPI_Comm_free(ring, ierr)

  ! Weighted, with vertex 0 isolated and passing MPI_WEIGHTS_EMPTY.
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (rank == 0 .or. nprocs < 3) then
    call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, src, MPI_WEIGHTS_EMPTY, 0, dst, MPI_WEIGHTS_EMPTY, &
                                        MPI_INFO_NULL, .true., sparse, ierr)
  else
    src(1) = 1 + modulo(rank - 2, nprocs - 1)
    dst(1) = 1 + modulo(rank, nprocs - 1)
    w(1) = 10 * rank
    call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, [10 * src(1)], 1, dst, w, MPI_INFO_NULL, .true., &
                                        sparse, ierr)
  end if
  call MPI_Comm_rank(sparse, rank, ierr)
  call MPI_Dist_graph_neighbors_count(sparse, indegree, outdegree, weighted, ierr)
  if (.not. weighted) failures = failures + 1
  if (rank == 0 .or. nprocs < 3) then
    if (indegree /= 0 .or. outdegree /= 0) failures = failures + 1
  else
    call MPI_Dist_graph_neighbors(sparse, 1, got_src, got_sw, 1, got_dst, got_dw, ierr)
    if (got_dst(1) /= 1 + modulo(rank, nprocs - 1) .or. got_dw(1) /= 10 * rank) failures = failures + 1
    if (got_src(1) /= 1 + modulo(rank - 2, nprocs - 1) .or. got_sw(1) /= 10 * got_src(1)) failures = failures + 1
  end if
  call MPI_Comm_free(sparse, ierr)

  ! The general constructor: each process declares the edge of vertex rank+1 (mod nprocs).
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  src(1) = modulo(rank + 1, nprocs)
  dst(1) = modulo(rank + 2, nprocs)
  w(1) = 5
  call MPI_Dist_graph_create(MPI_COMM_WORLD, 1, src, [1], dst, w, MPI_INFO_NULL, .true., general, ierr)
  call MPI_Comm_rank(general, rank, ierr)
  call MPI_Dist_graph_neighbors_count(general, indegree, outdegree, weighted, ierr)
  call MPI_Dist_graph_neighbors(general, 1, got_src, got_sw, 1, got_dst, got_dw, ierr)
  if (outdegree /= 1 .or. got_dst(1) /= modulo(rank + 1, nprocs) .or. got_dw(1) /= 5) failures = failures + 1
  call MPI_Comm_free(general, ierr)

  ! A 2D Cartesian grid, periodic in the first dimension only.
  dims = 0
  call MPI_Dims_create(nprocs, 2, dims, ierr)
  periods = [.true., .false.]
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .true., cart, ierr)
  call MPI_Comm_rank(cart, rank, ierr)
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call MPI_Cart_rank(cart, coords, back, ierr)
  if (back /= rank .or. rank /= coords(1) * dims(2) + coords(2)) failures = failures + 1
  call MPI_Cart_shift(cart, 0, 1, lower, upper, ierr)
  if (upper /= modulo(coords(1) + 1, dims(1)) * dims(2) + coords(2)) failures = failures + 1
  call MPI_Comm_free(cart, ierr)

  call MPI_Allreduce(failures, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (rank == 0) then
    if (total == 0) then
      write (*, '(a)') 'OK'
    else
      write (*, '(a, i0)') 'FAILED: ', total
    end if
  end if
  call MPI_Finalize(ierr)
end program fortran_bindings_test
