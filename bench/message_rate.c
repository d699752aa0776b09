/* Message rate of 64-byte messages between pairs of processes (osu_mbw_mr style): rank 2k sends
 * windows of 64 non-blocking messages to rank 2k+1, which answers each window with one byte. The
 * profiler's overhead is this rate under RANKMAP_PROFILE against the plain run (bench/run_profiler_bench.sh).
 * usage: message_rate [seconds]    prints `messages_per_second R` on rank 0;
 *        message_rate -w WINDOWS   runs exactly that many windows (for instruction counts);
 *        message_rate -i SECONDS [WINDOWS]   interleaved: blocks of WINDOWS windows (default 50) made
 *                                  of PMPI_ calls (the plain path, never interposed) alternate with blocks
 *                                  of MPI_ calls (interposed when a tool is preloaded), in pairs ordered AB,
 *                                  BA, AB, ...; prints `pair_ratio R` per pair, the MPI_ block's rate over
 *                                  the PMPI_ block's. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BYTES = 64, WINDOW = 64 };

/* One window: the sender's 64 sends and the receiver's acknowledgement, through the MPI_ or the
 * PMPI_ entry points (P is empty or P). */
#define DEFINE_WINDOW(NAME, P)                                                                          \
  static void NAME(int rank, int peer, char* buffers, MPI_Request* requests) {                          \
    char ack = 0;                                                                                       \
    if (rank % 2 == 0) {                                                                                \
      for (int i = 0; i < WINDOW; ++i)                                                                  \
        P##MPI_Isend(buffers + i * BYTES, BYTES, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &requests[i]);      \
      P##MPI_Waitall(WINDOW, requests, MPI_STATUSES_IGNORE);                                            \
      P##MPI_Recv(&ack, 1, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);                       \
    } else {                                                                                            \
      for (int i = 0; i < WINDOW; ++i)                                                                  \
        P##MPI_Irecv(buffers + i * BYTES, BYTES, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &requests[i]);      \
      P##MPI_Waitall(WINDOW, requests, MPI_STATUSES_IGNORE);                                            \
      P##MPI_Send(&ack, 1, MPI_CHAR, peer, 2, MPI_COMM_WORLD);                                          \
    }                                                                                                   \
  }
DEFINE_WINDOW(window, )
DEFINE_WINDOW(plain_window, P)

/* Rank 0 decides when time is up, so every pair runs the same number of windows; it looks every 5
 * windows, since an oversubscribed MPICH, which does not yield while it polls, is slow per window. */
static void timed_rate(int rank, int size, int peer, char* buffers, MPI_Request* requests, double seconds,
                       long limit) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  long windows = 0;
  int go = 1;
  while (go) {
    for (int i = 0; i < 5; ++i) window(rank, peer, buffers, requests);
    windows += 5;
    if (rank == 0) go = limit >= 0 ? windows < limit : MPI_Wtime() - start < seconds;
    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  const double elapsed = MPI_Wtime() - start;
  if (rank == 0) printf("messages_per_second %.6g\n", (double)windows * WINDOW * (size / 2) / elapsed);
}

/* Seconds for one block, from a barrier to the barrier after it: every pair runs the block
 * concurrently and the slowest one ends it. Barriers and the decision are PMPI_ in both modes. */
static double block_seconds(int interposed, long windows, int rank, int peer, char* buffers, MPI_Request* requests) {
  PMPI_Barrier(MPI_COMM_WORLD);
  const double start = PMPI_Wtime();
  for (long i = 0; i < windows; ++i) {
    if (interposed)
      window(rank, peer, buffers, requests);
    else
      plain_window(rank, peer, buffers, requests);
  }
  PMPI_Barrier(MPI_COMM_WORLD);
  return PMPI_Wtime() - start;
}

/* Adjacent blocks run under the same load, and alternating which comes first cancels a trend
 * within a pair, so the pairs' ratios measure the interposed code alone, however noisy the machine. */
static void interleaved_rate(int rank, int peer, char* buffers, MPI_Request* requests, double seconds, long windows) {
  const double start = PMPI_Wtime();
  int go = 1;
  for (long pair = 0; go; ++pair) {
    const int interposed_first = pair % 2 == 0;
    const double first = block_seconds(interposed_first, windows, rank, peer, buffers, requests);
    const double second = block_seconds(!interposed_first, windows, rank, peer, buffers, requests);
    const double plain = interposed_first ? second : first;
    const double interposed = interposed_first ? first : second;
    if (rank == 0) {
      printf("pair_ratio %.6g\n", plain / interposed);
      go = PMPI_Wtime() - start < seconds;
    }
    PMPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int fixed = argc > 2 && strcmp(argv[1], "-w") == 0;
  const int interleaved = argc > 2 && strcmp(argv[1], "-i") == 0;
  const double seconds = interleaved ? atof(argv[2]) : argc > 1 && !fixed ? atof(argv[1]) : 2.0;
  char* buffers = calloc(WINDOW, BYTES);
  MPI_Request requests[WINDOW];
  const int peer = rank ^ 1;
  const long block_windows = interleaved && argc > 3 ? atol(argv[3]) : 50;
  if (size % 2 != 0 || peer >= size || block_windows < 1) MPI_Abort(MPI_COMM_WORLD, 2);
  for (int i = 0; i < 10; ++i) window(rank, peer, buffers, requests); /* warm-up */
  if (interleaved)
    interleaved_rate(rank, peer, buffers, requests, seconds, block_windows);
  else
    timed_rate(rank, size, peer, buffers, requests, seconds, fixed ? atol(argv[2]) : -1);
  free(buffers);
  MPI_Finalize();
  return 0;
}
