/* Message rate of 64-byte messages between pairs of processes (osu_mbw_mr style): rank 2k sends
 * windows of 64 non-blocking messages to rank 2k+1, which answers each window with one byte. The
 * profiler's overhead is this rate under RANKMAP_PROFILE against the plain run (bench/run_profiler_bench.sh).
 * usage: message_rate [seconds]    prints `messages_per_second R` on rank 0;
 *        message_rate -w WINDOWS   runs exactly that many windows (for instruction counts). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BYTES = 64, WINDOW = 64 };

/* One window: the sender's 64 sends and the receiver's acknowledgement. */
static void window(int rank, int peer, char* buffers, MPI_Request* requests) {
  char ack = 0;
  if (rank % 2 == 0) {
    for (int i = 0; i < WINDOW; ++i) MPI_Isend(buffers + i * BYTES, BYTES, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &requests[i]);
    MPI_Waitall(WINDOW, requests, MPI_STATUSES_IGNORE);
    MPI_Recv(&ack, 1, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    for (int i = 0; i < WINDOW; ++i) MPI_Irecv(buffers + i * BYTES, BYTES, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &requests[i]);
    MPI_Waitall(WINDOW, requests, MPI_STATUSES_IGNORE);
    MPI_Send(&ack, 1, MPI_CHAR, peer, 2, MPI_COMM_WORLD);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int fixed = argc > 2 && argv[1][0] == '-' && argv[1][1] == 'w';
  const double seconds = argc > 1 && !fixed ? atof(argv[1]) : 2.0;
  const long limit = fixed ? atol(argv[2]) : -1;
  char* buffers = calloc(WINDOW, BYTES);
  MPI_Request requests[WINDOW];
  const int peer = rank ^ 1;
  if (size % 2 != 0 || peer >= size) MPI_Abort(MPI_COMM_WORLD, 2);
  for (int i = 0; i < 10; ++i) window(rank, peer, buffers, requests);  /* warm-up */

  /* Rank 0 decides when time is up, so every pair runs the same number of windows; it looks every 5
   * windows, since an oversubscribed MPICH, which does not yield while it polls, is slow per window. */
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  long windows = 0;
  int go = 1;
  while (go) {
    for (int i = 0; i < 5; ++i) window(rank, peer, buffers, requests);
    windows += 5;
    if (rank == 0) go = fixed ? windows < limit : MPI_Wtime() - start < seconds;
    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  const double elapsed = MPI_Wtime() - start;
  if (rank == 0) printf("messages_per_second %.6g\n", (double)windows * WINDOW * (size / 2) / elapsed);
  free(buffers);
  MPI_Finalize();
  return 0;
}
