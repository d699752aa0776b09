! profile_fortran.F90 - the profiler under `use mpi_f08` (built with -DUSE_F08) or `use mpi`:
! MPI_SEND, MPI_ISEND, a persistent MPI_SEND_INIT started twice (MPI_START, MPI_REQUEST_FREE),
! MPI_SENDRECV, MPI_ALLREDUCE with MPI_IN_PLACE and MPI_BARRIER, with sizes check_profile.py knows.
#ifdef USE_F08
#define REQUEST type(MPI_Request)
#else
#define REQUEST integer
#endif
program profile_fortran
#ifdef USE_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  integer :: nprocs, rank, ierr, i
  integer :: ints(25), got(25), five(5), back(5), four(4), in4(4), three(3)
  double precision :: ten(10), in10(10)
  REQUEST :: requests(2), persistent, receive

  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  ints = rank
  ten = 1.0d0
  five = 5
  four = 4
  three = 1

  call MPI_Irecv(got, 25, MPI_INTEGER, modulo(rank - 1, nprocs), 1, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_Send(ints, 25, MPI_INTEGER, modulo(rank + 1, nprocs), 1, MPI_COMM_WORLD, ierr)
  call MPI_Wait(requests(1), MPI_STATUS_IGNORE, ierr)

  call MPI_Irecv(in10, 10, MPI_DOUBLE_PRECISION, modulo(rank - 2, nprocs), 2, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_Isend(ten, 10, MPI_DOUBLE_PRECISION, modulo(rank + 2, nprocs), 2, MPI_COMM_WORLD, requests(2), ierr)
  call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE, ierr)

  call MPI_Send_init(five, 5, MPI_INTEGER, modulo(rank + 3, nprocs), 3, MPI_COMM_WORLD, persistent, ierr)
  call MPI_Recv_init(back, 5, MPI_INTEGER, modulo(rank - 3, nprocs), 3, MPI_COMM_WORLD, receive, ierr)
  do i = 1, 2
    call MPI_Start(receive, ierr)
    call MPI_Start(persistent, ierr)
    call MPI_Wait(persistent, MPI_STATUS_IGNORE, ierr)
    call MPI_Wait(receive, MPI_STATUS_IGNORE, ierr)
  end do
  call MPI_Request_free(persistent, ierr)
  call MPI_Request_free(receive, ierr)

  call MPI_Sendrecv(four, 4, MPI_INTEGER, modulo(rank + 1, nprocs), 4, in4, 4, MPI_INTEGER, &
                    modulo(rank - 1, nprocs), 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Allreduce(MPI_IN_PLACE, three, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. three(1) == nprocs .and. got(1) == modulo(rank - 1, nprocs)) print '(a)', 'OK'
  call MPI_Finalize(ierr)
end program profile_fortran
