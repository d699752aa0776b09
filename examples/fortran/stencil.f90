! stencil.f90 - the 3D halo exchange of examples/stencil from Fortran (use mpi): a periodic process
! grid built with MPI_Dist_graph_create_adjacent(reorder = .true.), halos exchanged with
! MPI_Neighbor_alltoallv. Unmodified MPI; under librankmap_preload.so the ranks are renumbered.
! Each process takes its work from its new rank, checks its neighbours and halos, and rank 0
! prints OK when the field's sum is conserved.
program stencil
  use mpi
  implicit none
  integer, parameter :: n = 6, iterations = 10
  integer :: ierr, nprocs, world_rank, rank, grid, it, k, d, failures, all_failures
  integer :: dims(3), c(3), sources(6), destinations(6), weights(6)
  integer :: got_src(6), got_dst(6), got_sw(6), got_dw(6), indegree, outdegree
  logical :: weighted
  double precision :: u(0:n+1, 0:n+1, 0:n+1), v(0:n+1, 0:n+1, 0:n+1), expected(0:n+1, 0:n+1, 0:n+1)
  double precision :: sendbuf(n*n, 6), recvbuf(n*n, 6), local_sum, start_sum, end_sum
  integer :: counts(6), displs(6)

  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, world_rank, ierr)
  dims = 0
  call MPI_Dims_create(nprocs, 3, dims, ierr)

  ! Each process describes the vertex of its old rank; rankmap moves the lists to the new owner.
  call neighbours(world_rank, sources, destinations)
  weights = 8 * n * n
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 6, sources, weights, 6, destinations, weights, &
                                      MPI_INFO_NULL, .true., grid, ierr)
  call MPI_Comm_rank(grid, rank, ierr)

  failures = 0
  call neighbours(rank, sources, destinations)
  call MPI_Dist_graph_neighbors_count(grid, indegree, outdegree, weighted, ierr)
  call MPI_Dist_graph_neighbors(grid, 6, got_src, got_sw, 6, got_dst, got_dw, ierr)
  if (indegree /= 6 .or. outdegree /= 6 .or. .not. weighted) failures = failures + 1
  if (any(got_src /= sources) .or. any(got_dst /= destinations) .or. any(got_sw /= weights)) failures = failures + 1

  call coords_of(rank, c)
  call fill(expected)
  u = 0
  u(1:n, 1:n, 1:n) = expected(1:n, 1:n, 1:n)
  local_sum = sum(u(1:n, 1:n, 1:n))
  call MPI_Allreduce(local_sum, start_sum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, grid, ierr)

  counts = n * n
  displs = [(k * n * n, k = 0, 5)]
  do it = 1, iterations
    ! Block k goes to destinations(k): +x, -x, +y, -y, +z, -z; it comes from sources(k): -x, +x, ...
    do k = 1, 6
      d = (k + 1) / 2
      if (mod(k, 2) == 1) then
        call get_face(u, d, n, sendbuf(:, k))
      else
        call get_face(u, d, 1, sendbuf(:, k))
      end if
    end do
    ! alltoallv rather than alltoall: MPICH 4.0's MPI_Neighbor_alltoall delivers the messages of
    ! parallel edges (both neighbours one process, as on 1 or 2 processes per dimension) in reverse.
    call MPI_Neighbor_alltoallv(sendbuf, counts, displs, MPI_DOUBLE_PRECISION, recvbuf, counts, displs, &
                                MPI_DOUBLE_PRECISION, grid, ierr)
    do k = 1, 6
      d = (k + 1) / 2
      if (mod(k, 2) == 1) then
        call set_face(u, d, 0, recvbuf(:, k))
        if (it == 1) call check_face(d, 0, recvbuf(:, k))
      else
        call set_face(u, d, n + 1, recvbuf(:, k))
        if (it == 1) call check_face(d, n + 1, recvbuf(:, k))
      end if
    end do
    v(1:n, 1:n, 1:n) = (u(1:n, 1:n, 1:n) + u(0:n-1, 1:n, 1:n) + u(2:n+1, 1:n, 1:n) + u(1:n, 0:n-1, 1:n) &
                        + u(1:n, 2:n+1, 1:n) + u(1:n, 1:n, 0:n-1) + u(1:n, 1:n, 2:n+1)) / 7.0d0
    u(1:n, 1:n, 1:n) = v(1:n, 1:n, 1:n)
  end do

  local_sum = sum(u(1:n, 1:n, 1:n))
  call MPI_Allreduce(local_sum, end_sum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, grid, ierr)
  call MPI_Allreduce(failures, all_failures, 1, MPI_INTEGER, MPI_SUM, grid, ierr)
  if (rank == 0) then
    write (*, '(a, i0, a, i0, a, i0, a, i0, a, es22.15, a, es22.15)') 'stencil_fortran: ', nprocs, &
      ' ranks on a ', dims(1), 'x', dims(2), 'x', dims(3), ' process grid, sum ', start_sum, ' -> ', end_sum
    if (all_failures == 0 .and. abs(end_sum - start_sum) <= 1.0d-9 * abs(start_sum)) then
      write (*, '(a)') 'OK'
    else
      write (*, '(a)') 'FAILED'
    end if
  end if
  call MPI_Comm_free(grid, ierr)
  call MPI_Finalize(ierr)

contains

  subroutine coords_of(r, cc)
    integer, intent(in) :: r
    integer, intent(out) :: cc(3)
    cc(1) = r / (dims(2) * dims(3))
    cc(2) = mod(r / dims(3), dims(2))
    cc(3) = mod(r, dims(3))
  end subroutine

  integer function rank_at(cc)
    integer, intent(in) :: cc(3)
    integer :: w(3)
    w = modulo(cc, dims)
    rank_at = (w(1) * dims(2) + w(2)) * dims(3) + w(3)
  end function

  ! Sources -x,+x,-y,+y,-z,+z and destinations +x,-x,+y,-y,+z,-z, so that the k-th message from a
  ! neighbour lands in the right halo even when both neighbours along a dimension are one process.
  subroutine neighbours(r, src, dst)
    integer, intent(in) :: r
    integer, intent(out) :: src(6), dst(6)
    integer :: cc(3), nb(3), dd
    call coords_of(r, cc)
    do dd = 1, 3
      nb = cc
      nb(dd) = cc(dd) - 1
      src(2 * dd - 1) = rank_at(nb)
      dst(2 * dd) = rank_at(nb)
      nb(dd) = cc(dd) + 1
      src(2 * dd) = rank_at(nb)
      dst(2 * dd - 1) = rank_at(nb)
    end do
  end subroutine

  ! A deterministic value per global cell, halos included (the domain is periodic).
  subroutine fill(a)
    double precision, intent(out) :: a(0:n+1, 0:n+1, 0:n+1)
    integer :: i, j, l
    integer(8) :: g(3), h
    do l = 0, n + 1
      do j = 0, n + 1
        do i = 0, n + 1
          g = modulo(int(c, 8) * n + [i - 1, j - 1, l - 1], int(dims, 8) * n)
          h = mod(g(1) * 73856093_8 + g(2) * 19349663_8 + g(3) * 83492791_8, 1000003_8)
          a(i, j, l) = dble(h) / 1000003.0d0
        end do
      end do
    end do
  end subroutine

  subroutine get_face(a, dd, idx, buf)
    double precision, intent(in) :: a(0:n+1, 0:n+1, 0:n+1)
    integer, intent(in) :: dd, idx
    double precision, intent(out) :: buf(n * n)
    select case (dd)
    case (1)
      buf = reshape(a(idx, 1:n, 1:n), [n * n])
    case (2)
      buf = reshape(a(1:n, idx, 1:n), [n * n])
    case default
      buf = reshape(a(1:n, 1:n, idx), [n * n])
    end select
  end subroutine

  subroutine set_face(a, dd, idx, buf)
    double precision, intent(inout) :: a(0:n+1, 0:n+1, 0:n+1)
    integer, intent(in) :: dd, idx
    double precision, intent(in) :: buf(n * n)
    select case (dd)
    case (1)
      a(idx, 1:n, 1:n) = reshape(buf, [n, n])
    case (2)
      a(1:n, idx, 1:n) = reshape(buf, [n, n])
    case default
      a(1:n, 1:n, idx) = reshape(buf, [n, n])
    end select
  end subroutine

  subroutine check_face(dd, idx, buf)
    integer, intent(in) :: dd, idx
    double precision, intent(in) :: buf(n * n)
    double precision :: want(n * n)
    call get_face(expected, dd, idx, want)
    if (any(buf /= want)) failures = failures + 1
  end subroutine

end program stencil
