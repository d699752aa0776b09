/* A halo exchange written with MPI_Sendrecv only, on a periodic 2D process grid of its own making:
 * the kind of code that never calls a topology function, so rankmap can place it only through a
 * launcher file (profile with RANKMAP_PROFILE, `rankmap place`, relaunch). East-west halos are 4
 * times larger than north-south ones. Rank 0 prints a checksum of everything received, which a
 * relaunch under a launcher file must reproduce, and OK when every halo came from the neighbour it
 * should. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { WIDE = 4096, NARROW = 1024, ITERATIONS = 5 };

static int exchange(int to, int from, int count, int expected, int* send, int* recv, long long* sum) {
  MPI_Sendrecv(send, count, MPI_INT, to, 0, recv, count, MPI_INT, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int errors = 0;
  for (int i = 0; i < count; ++i) {
    errors += recv[i] != expected;
    *sum += (long long)recv[i] * (i % 7 + 1);
  }
  return errors;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, dims[2] = {0, 0};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  const int row = rank / dims[1], col = rank % dims[1];
  const int east = row * dims[1] + (col + 1) % dims[1], west = row * dims[1] + (col + dims[1] - 1) % dims[1];
  const int south = ((row + 1) % dims[0]) * dims[1] + col, north = ((row + dims[0] - 1) % dims[0]) * dims[1] + col;
  int* send = malloc(WIDE * sizeof(int));
  int* recv = malloc(WIDE * sizeof(int));
  for (int i = 0; i < WIDE; ++i) send[i] = rank;
  int errors = 0;
  long long sum = 0;
  for (int it = 0; it < ITERATIONS; ++it) {
    errors += exchange(east, west, WIDE, west, send, recv, &sum);
    errors += exchange(west, east, WIDE, east, send, recv, &sum);
    errors += exchange(south, north, NARROW, north, send, recv, &sum);
    errors += exchange(north, south, NARROW, south, send, recv, &sum);
  }
  int total = 0;
  long long checksum = 0;
  MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sum, &checksum, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("halo_sendrecv: %d ranks on a %dx%d grid, checksum %lld\n", size, dims[0], dims[1], checksum);
    printf(total == 0 ? "OK\n" : "FAILED: %d bad halos\n", total);
  }
  free(send);
  free(recv);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
