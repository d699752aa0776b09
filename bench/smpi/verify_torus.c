/* Checks SimGrid's TORUS cluster against DESIGN.md §8: host ids number dimension 0 fastest, routes follow
 * the torus links hop by hop (dimension 0 corrected first), and two flows sharing a link slow each other. */
#include <mpi.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIMS 8

/* Coordinates of host `id` when dimension 0 varies fastest: id = c0 + k0*(c1 + k1*(c2 + ...)). */
static void coords_of(long id, int ndims, const int* k, int* c)
{
  for (int d = 0; d < ndims; d++) {
    c[d] = (int)(id % k[d]);
    id /= k[d];
  }
}

static int torus_distance(int a, int b, int k)
{
  int d = abs(a - b);
  return d < k - d ? d : k - d;
}

/* The dimension along which hosts a and b are torus neighbours, or -1. */
static int neighbour_dim(long a, long b, int ndims, const int* k)
{
  int ca[MAX_DIMS];
  int cb[MAX_DIMS];
  coords_of(a, ndims, k, ca);
  coords_of(b, ndims, k, cb);
  int dim = -1;
  for (int d = 0; d < ndims; d++) {
    if (ca[d] == cb[d])
      continue;
    if (dim >= 0 || torus_distance(ca[d], cb[d], k[d]) != 1)
      return -1;
    dim = d;
  }
  return dim;
}

/* Walks the route from host `src` to `dst` and returns the number of errors found. */
static int check_route(const char* prefix, long src, long dst, int ndims, const int* k)
{
  char name[64];
  snprintf(name, sizeof name, "%s%ld", prefix, src);
  sg_host_t from = sg_host_by_name(name);
  snprintf(name, sizeof name, "%s%ld", prefix, dst);
  sg_host_t to = sg_host_by_name(name);
  if (from == NULL || to == NULL) {
    fprintf(stderr, "verify_torus: no host %s%ld or %s%ld\n", prefix, src, prefix, dst);
    return 1;
  }
  xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
  sg_host_get_route(from, to, links);

  int cs[MAX_DIMS];
  int cd[MAX_DIMS];
  coords_of(src, ndims, k, cs);
  coords_of(dst, ndims, k, cd);
  int expected_hops = 0;
  for (int d = 0; d < ndims; d++)
    expected_hops += torus_distance(cs[d], cd[d], k[d]);

  int errors = 0;
  int last_dim = 0;
  unsigned long n = xbt_dynar_length(links);
  if ((int)n != expected_hops) {
    fprintf(stderr, "verify_torus: %ld -> %ld crosses %lu links, torus distance is %d\n", src, dst, n, expected_hops);
    errors++;
  }
  for (unsigned long i = 0; i < n; i++) {
    const char* lname = sg_link_get_name(xbt_dynar_get_as(links, i, sg_link_t));
    long a;
    long b;
    const char* from_at = strstr(lname, "_link_from_");
    if (from_at == NULL || sscanf(from_at, "_link_from_%ld_to_%ld", &a, &b) != 2) {
      fprintf(stderr, "verify_torus: %ld -> %ld uses a non-torus link %s\n", src, dst, lname);
      errors++;
      continue;
    }
    int dim = neighbour_dim(a, b, ndims, k);
    if (dim < 0 || dim < last_dim) {
      fprintf(stderr, "verify_torus: %ld -> %ld hop %lu on link %s is not a dimension-ordered torus hop\n", src, dst,
              i, lname);
      errors++;
    } else {
      last_dim = dim;
    }
  }
  xbt_dynar_free(&links);
  return errors;
}

/* Every ordered pair when the torus is small, else a deterministic sample. */
static int check_routes(const char* prefix, int ndims, const int* k)
{
  long hosts = 1;
  for (int d = 0; d < ndims; d++)
    hosts *= k[d];
  long pairs = 0;
  int errors = 0;
  long step = hosts <= 512 ? 1 : 97;
  for (long a = 0; a < hosts; a++)
    for (long b = (a * 31) % step; b < hosts; b += step) {
      if (a == b)
        continue;
      errors += check_route(prefix, a, b, ndims, k);
      pairs++;
    }
  printf("routes: %ld pairs checked on %ld hosts, %d errors\n", pairs, hosts, errors);
  return errors;
}

/* Rank 0 sends `bytes` to rank size/2, rank 1 to rank size/2+1, ... all at once; prints each transfer time. */
static void timed_transfers(long bytes)
{
  int rank;
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char* buf = calloc((size_t)bytes, 1);
  int half = size / 2;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (rank < half)
    MPI_Send(buf, (int)bytes, MPI_CHAR, rank + half, 0, MPI_COMM_WORLD);
  else
    MPI_Recv(buf, (int)bytes, MPI_CHAR, rank - half, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double t = MPI_Wtime() - t0;
  if (rank >= half) {
    char host[MPI_MAX_PROCESSOR_NAME];
    char peer[MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Get_processor_name(host, &len);
    MPI_Recv(peer, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, rank - half, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("transfer: %s -> %s bytes=%ld time=%.9e\n", peer, host, bytes, t);
  } else {
    char host[MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Get_processor_name(host, &len);
    MPI_Send(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, rank + half, 1, MPI_COMM_WORLD);
  }
  free(buf);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int routes = argc >= 4 && strcmp(argv[1], "routes") == 0;
  int transfer = argc == 3 && strcmp(argv[1], "transfer") == 0;
  if (!routes && !transfer) {
    fprintf(stderr, "usage: verify_torus routes PREFIX K0 [K1 ...] | verify_torus transfer BYTES\n");
    MPI_Finalize();
    return 2;
  }
  int status = 0;
  if (routes) {
    int k[MAX_DIMS];
    int ndims = argc - 3;
    for (int d = 0; d < ndims && d < MAX_DIMS; d++)
      k[d] = atoi(argv[3 + d]);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
      status = check_routes(argv[2], ndims, k) != 0;
  } else {
    timed_transfers(atol(argv[2]));
  }
  MPI_Finalize();
  return status;
}
