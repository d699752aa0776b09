/*
 * reorder_time.c — the time of one MPI_Dist_graph_create_adjacent on a 3D periodic stencil (as the
 * slowest rank sees it), with reorder = 0 and with reorder = 1. Under the preload layer the second
 * includes rankmap's whole protocol: agreement, gather, mapping, broadcast, renumbering.
 */
#include <mpi.h>
#include <stdio.h>

static int dims[3];

static int rank_at(int x, int y, int z) {
  x = (x + dims[0]) % dims[0];
  y = (y + dims[1]) % dims[1];
  z = (z + dims[2]) % dims[2];
  return (x * dims[1] + y) * dims[2] + z;
}

static double timed_create(int reorder, const int* nbrs, const int* weights) {
  MPI_Comm graph;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 6, nbrs, weights, 6, nbrs, weights, MPI_INFO_NULL, reorder, &graph);
  double elapsed = MPI_Wtime() - start, slowest = 0;
  MPI_Allreduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Comm_free(&graph);
  return slowest;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  dims[0] = dims[1] = dims[2] = 0;
  MPI_Dims_create(size, 3, dims);
  const int x = rank / (dims[1] * dims[2]), y = (rank / dims[2]) % dims[1], z = rank % dims[2];
  /* Both neighbours of a dimension, with weights that differ per dimension. */
  const int nbrs[6] = {rank_at(x - 1, y, z), rank_at(x + 1, y, z), rank_at(x, y - 1, z),
                       rank_at(x, y + 1, z), rank_at(x, y, z - 1), rank_at(x, y, z + 1)};
  const int weights[6] = {256, 256, 384, 384, 768, 768};
  const double plain = timed_create(0, nbrs, weights);
  const double reordered = timed_create(1, nbrs, weights);
  if (rank == 0) printf("create_seconds reorder0 %.6f reorder1 %.6f\n", plain, reordered);
  MPI_Finalize();
  return 0;
}
