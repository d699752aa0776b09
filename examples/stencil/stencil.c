/*
 * stencil.c — a 3D Jacobi sweep with halo exchange on a periodic process grid, built with
 * MPI_Dist_graph_create_adjacent(reorder = 1). Unmodified MPI: run it under librankmap_preload.so
 * and rankmap renumbers the ranks for the machine. Each process takes its work from its rank in
 * the new communicator, checks the neighbours MPI reports and the halos it receives, and rank 0
 * prints OK when the field's sum is conserved.
 */
#include <mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The local block; unequal sides give faces of different sizes, hence weighted edges. */
enum { NX = 12, NY = 8, NZ = 4, ITERATIONS = 10 };
#define IDX(i, j, k) (((i) * (NY + 2) + (j)) * (NZ + 2) + (k))

static int dims[3];

static void coords_of(int rank, int c[3]) {
  c[0] = rank / (dims[1] * dims[2]);
  c[1] = (rank / dims[2]) % dims[1];
  c[2] = rank % dims[2];
}

static int rank_at(const int c[3]) {
  int w[3];
  for (int d = 0; d < 3; ++d) w[d] = (c[d] + dims[d]) % dims[d];
  return (w[0] * dims[1] + w[1]) * dims[2] + w[2];
}

/* Sources are ordered -x,+x,-y,+y,-z,+z and destinations +x,-x,+y,-y,+z,-z: the k-th message from
 * a neighbour then always lands in the right halo, even when a dimension of extent 1 or 2 makes
 * both neighbours the same process. */
static void neighbours(int rank, int sources[6], int destinations[6]) {
  int c[3];
  coords_of(rank, c);
  for (int d = 0; d < 3; ++d)
    for (int side = 0; side < 2; ++side) {
      int n[3] = {c[0], c[1], c[2]};
      n[d] += side ? 1 : -1;
      sources[2 * d + side] = rank_at(n);
      n[d] = c[d] + (side ? -1 : 1);
      destinations[2 * d + side] = rank_at(n);
    }
}

static const int face_size[3] = {NY * NZ, NX * NZ, NX * NY};

/* A deterministic value per global cell, so halos can be checked exactly. */
static double initial(long gi, long gj, long gk) {
  const long g[3] = {gi, gj, gk};
  const long n[3] = {(long)dims[0] * NX, (long)dims[1] * NY, (long)dims[2] * NZ};
  unsigned long h = 1469598103934665603UL;
  for (int d = 0; d < 3; ++d) h = (h ^ (unsigned long)((g[d] % n[d] + n[d]) % n[d])) * 1099511628211UL;
  return (double)(h % 1000003UL) / 1000003.0;
}

/* Visits the cells of the face of the interior (ghost == 0) or of the halo (ghost == 1) on one side. */
static void face_cells(int d, int side, int ghost, int* count, int cells[][3]) {
  const int ext[3] = {NX, NY, NZ};
  int n = 0;
  const int fixed = side ? (ghost ? ext[d] + 1 : ext[d]) : (ghost ? 0 : 1);
  const int a = (d + 1) % 3, b = (d + 2) % 3;
  for (int x = 1; x <= ext[a]; ++x)
    for (int y = 1; y <= ext[b]; ++y) {
      cells[n][d] = fixed;
      cells[n][a] = x;
      cells[n][b] = y;
      ++n;
    }
  *count = n;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size, world_rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  dims[0] = dims[1] = dims[2] = 0;
  MPI_Dims_create(size, 3, dims);

  /* Each process describes the vertex of its old rank; rankmap moves the lists to the process
   * that plays that vertex in the new communicator. */
  int sources[6], destinations[6], source_weights[6], dest_weights[6];
  neighbours(world_rank, sources, destinations);
  for (int k = 0; k < 6; ++k) source_weights[k] = dest_weights[k] = 8 * face_size[k / 2];
  MPI_Comm grid;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 6, sources, source_weights, 6, destinations, dest_weights,
                                 MPI_INFO_NULL, 1, &grid);
  int rank;
  MPI_Comm_rank(grid, &rank);

  int failures = 0;
  int expect_src[6], expect_dst[6], got_src[6], got_dst[6], got_sw[6], got_dw[6], indeg, outdeg, weighted;
  neighbours(rank, expect_src, expect_dst);
  MPI_Dist_graph_neighbors_count(grid, &indeg, &outdeg, &weighted);
  MPI_Dist_graph_neighbors(grid, 6, got_src, got_sw, 6, got_dst, got_dw);
  failures += indeg != 6 || outdeg != 6 || !weighted;
  for (int k = 0; k < 6; ++k)
    failures += got_src[k] != expect_src[k] || got_dst[k] != expect_dst[k] || got_sw[k] != 8 * face_size[k / 2];

  int c[3];
  coords_of(rank, c);
  double* u = calloc((size_t)(NX + 2) * (NY + 2) * (NZ + 2), sizeof(double));
  double* v = calloc((size_t)(NX + 2) * (NY + 2) * (NZ + 2), sizeof(double));
  for (int i = 1; i <= NX; ++i)
    for (int j = 1; j <= NY; ++j)
      for (int k = 1; k <= NZ; ++k)
        u[IDX(i, j, k)] = initial((long)c[0] * NX + i - 1, (long)c[1] * NY + j - 1, (long)c[2] * NZ + k - 1);

  int counts[6], displs[6], total = 0;
  for (int k = 0; k < 6; ++k) {
    counts[k] = face_size[k / 2];
    displs[k] = total;
    total += counts[k];
  }
  double* sendbuf = malloc(sizeof(double) * total);
  double* recvbuf = malloc(sizeof(double) * total);
  int (*cells)[3] = malloc(sizeof(int[3]) * NX * NY);
  double local_sum = 0, start_sum = 0, end_sum = 0;
  for (int i = 1; i <= NX; ++i)
    for (int j = 1; j <= NY; ++j)
      for (int k = 1; k <= NZ; ++k) local_sum += u[IDX(i, j, k)];
  MPI_Allreduce(&local_sum, &start_sum, 1, MPI_DOUBLE, MPI_SUM, grid);

  for (int it = 0; it < ITERATIONS; ++it) {
    /* Destination block k is the face toward destinations[k]: +x, -x, +y, -y, +z, -z. */
    for (int k = 0; k < 6; ++k) {
      int n;
      face_cells(k / 2, k % 2 == 0, 0, &n, cells);
      for (int q = 0; q < n; ++q) sendbuf[displs[k] + q] = u[IDX(cells[q][0], cells[q][1], cells[q][2])];
    }
    MPI_Neighbor_alltoallv(sendbuf, counts, displs, MPI_DOUBLE, recvbuf, counts, displs, MPI_DOUBLE, grid);
    /* Source block k fills the halo on side -x, +x, -y, +y, -z, +z. */
    for (int k = 0; k < 6; ++k) {
      int n;
      face_cells(k / 2, k % 2 == 1, 1, &n, cells);
      for (int q = 0; q < n; ++q) {
        const int* cell = cells[q];
        u[IDX(cell[0], cell[1], cell[2])] = recvbuf[displs[k] + q];
        if (it == 0)
          failures += recvbuf[displs[k] + q] != initial((long)c[0] * NX + cell[0] - 1, (long)c[1] * NY + cell[1] - 1,
                                                       (long)c[2] * NZ + cell[2] - 1);
      }
    }
    for (int i = 1; i <= NX; ++i)
      for (int j = 1; j <= NY; ++j)
        for (int k = 1; k <= NZ; ++k)
          v[IDX(i, j, k)] = (u[IDX(i, j, k)] + u[IDX(i - 1, j, k)] + u[IDX(i + 1, j, k)] + u[IDX(i, j - 1, k)] +
                             u[IDX(i, j + 1, k)] + u[IDX(i, j, k - 1)] + u[IDX(i, j, k + 1)]) / 7.0;
    double* t = u;
    u = v;
    v = t;
  }
  local_sum = 0;
  for (int i = 1; i <= NX; ++i)
    for (int j = 1; j <= NY; ++j)
      for (int k = 1; k <= NZ; ++k) local_sum += u[IDX(i, j, k)];
  MPI_Allreduce(&local_sum, &end_sum, 1, MPI_DOUBLE, MPI_SUM, grid);
  int all_failures = 0;
  MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, grid);
  const int conserved = fabs(end_sum - start_sum) <= 1e-9 * fabs(start_sum);
  if (rank == 0) {
    printf("stencil: %d ranks on a %dx%dx%d process grid, %d iterations, sum %.12g -> %.12g\n", size, dims[0],
           dims[1], dims[2], ITERATIONS, start_sum, end_sum);
    printf("%s\n", all_failures == 0 && conserved ? "OK" : "FAILED");
  }
  free(cells);
  free(sendbuf);
  free(recvbuf);
  free(u);
  free(v);
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return all_failures == 0 && conserved ? 0 : 1;
}
