/* init_time.c — how long MPI_Init takes, as the slowest rank sees it; run plain and under the preload layer. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char** argv) {
  const double start = now();
  MPI_Init(&argc, &argv);
  double elapsed = now() - start, slowest = 0;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("init_seconds %.6f\n", slowest);
  MPI_Finalize();
  return 0;
}
