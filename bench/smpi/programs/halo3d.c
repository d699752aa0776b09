/* 3D 7-point (or 27-point) halo exchange on a periodic process grid, with a Jacobi sweep between exchanges.
 *
 * The P ranks form a d0 x d1 x d2 grid (MPI_Dims_create, largest first), rank = (c0*d1 + c1)*d2 + c2,
 * periodic in every dimension. Each rank owns an n^3 block of doubles and, every iteration, sends
 * one n^2 face to each of its 6 neighbours; with -s 27 it also sends an edge of n cells to each of
 * its 12 edge neighbours and one corner cell to each of its 8 corner neighbours (26 in all), and the
 * sweep averages all 27 cells. Check: every ghost cell holds the neighbour's value (a closed-form
 * function of the global index), and the Jacobi sweep conserves the global sum.
 *
 * Options: -n edge of the local block (32), -i iterations (4), -s stencil points (7 or 27), --graph FILE. */
#include "bench_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int n;
  int dims[3];
  int coords[3];
  long global[3]; /* global extents in cells */
} Layout;

static size_t idx(int n, int i, int j, int k) { return ((size_t)i * (n + 2) + j) * (n + 2) + k; }

/* The value of global cell g at iteration it: distinct integers, exactly representable. */
static double value(const Layout* l, long g0, long g1, long g2, int it)
{
  g0 = (g0 + l->global[0]) % l->global[0];
  g1 = (g1 + l->global[1]) % l->global[1];
  g2 = (g2 + l->global[2]) % l->global[2];
  return (double)((g0 * l->global[1] + g1) * l->global[2] + g2) + 0.5 * it;
}

static int rank_of(const Layout* l, const int* c)
{
  int w[3];
  for (int d = 0; d < 3; d++)
    w[d] = (c[d] + l->dims[d]) % l->dims[d];
  return (w[0] * l->dims[1] + w[1]) * l->dims[2] + w[2];
}

/* Face `f` = 2*d + s (s = 0 low side, 1 high side): maps face position (a, b) to local cell indices,
 * at layer `layer` along d (1 or n for the owned boundary, 0 or n+1 for the ghost). */
static void face_cell(int d, int layer, int a, int b, int* ijk)
{
  ijk[d] = layer;
  ijk[(d + 1) % 3] = a;
  ijk[(d + 2) % 3] = b;
}

static void fill(const Layout* l, double* u, int it)
{
  int n = l->n;
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++)
      for (int k = 1; k <= n; k++)
        u[idx(n, i, j, k)] = value(l, (long)l->coords[0] * n + i - 1, (long)l->coords[1] * n + j - 1,
                                   (long)l->coords[2] * n + k - 1, it);
}

static void exchange(Bench* b, const Layout* l, double* u, double* sendbuf, double* recvbuf)
{
  int n = l->n;
  size_t face = (size_t)n * n;
  MPI_Request req[12];
  for (int f = 0; f < 6; f++) {
    int d = f / 2;
    int s = f % 2;
    int c[3] = {l->coords[0], l->coords[1], l->coords[2]};
    c[d] += s ? 1 : -1;
    int peer = rank_of(l, c);
    double* out = sendbuf + f * face;
    for (int a = 0; a < n; a++)
      for (int bb = 0; bb < n; bb++) {
        int ijk[3];
        face_cell(d, s ? n : 1, a + 1, bb + 1, ijk);
        out[a * n + bb] = u[idx(n, ijk[0], ijk[1], ijk[2])];
      }
    /* The face we send towards +d arrives as the -d ghost of the peer: tag by the receiver's face. */
    bench_irecv(recvbuf + f * face, (int)face, MPI_DOUBLE, peer, 2 * d + (1 - s), &req[f]);
    bench_isend(b, out, (int)face, MPI_DOUBLE, peer, 2 * d + s, &req[6 + f]);
  }
  MPI_Waitall(12, req, MPI_STATUSES_IGNORE);
  /* Receive posted with tag 2d+(1-s) from the peer on side s holds the peer's face facing us. */
  for (int f = 0; f < 6; f++) {
    int d = f / 2;
    int s = f % 2;
    for (int a = 0; a < n; a++)
      for (int bb = 0; bb < n; bb++) {
        int ijk[3];
        face_cell(d, s ? n + 1 : 0, a + 1, bb + 1, ijk);
        u[idx(n, ijk[0], ijk[1], ijk[2])] = recvbuf[f * face + a * n + bb];
      }
  }
}

static long check_ghosts(const Layout* l, const double* u, int it)
{
  int n = l->n;
  long wrong = 0;
  for (int f = 0; f < 6; f++) {
    int d = f / 2;
    int s = f % 2;
    for (int a = 1; a <= n; a++)
      for (int bb = 1; bb <= n; bb++) {
        int ijk[3];
        face_cell(d, s ? n + 1 : 0, a, bb, ijk);
        long g[3];
        for (int e = 0; e < 3; e++)
          g[e] = (long)l->coords[e] * n + ijk[e] - 1;
        wrong += u[idx(n, ijk[0], ijk[1], ijk[2])] != value(l, g[0], g[1], g[2], it);
      }
  }
  return wrong;
}

/* One Jacobi sweep; returns the sum of the new values. */
static double jacobi(int n, const double* u, double* unew)
{
  double sum = 0;
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++)
      for (int k = 1; k <= n; k++) {
        double v = (u[idx(n, i, j, k)] + u[idx(n, i - 1, j, k)] + u[idx(n, i + 1, j, k)] + u[idx(n, i, j - 1, k)] +
                    u[idx(n, i, j + 1, k)] + u[idx(n, i, j, k - 1)] + u[idx(n, i, j, k + 1)]) /
                   7.0;
        unew[idx(n, i, j, k)] = v;
        sum += v;
      }
  bench_compute(8.0 * n * n * n);
  return sum;
}

/* The 26 neighbour offsets o in {-1,0,1}^3 \ {0} are numbered k = 9(o0+1) + 3(o1+1) + (o2+1), k != 13;
 * the offset -o has number 26 - k. Along dimension e the cells sent towards o are layer 1 (o_e = -1),
 * layer n (o_e = +1) or all of 1..n (o_e = 0); the ghost cells filled from o are layer 0, n+1 or 1..n. */
static void offset_of(int k, int* o)
{
  o[0] = k / 9 - 1;
  o[1] = (k / 3) % 3 - 1;
  o[2] = k % 3 - 1;
}

static void region(int n, const int* o, int ghost, int* lo, int* hi)
{
  for (int e = 0; e < 3; e++) {
    if (o[e] == 0) {
      lo[e] = 1;
      hi[e] = n;
    } else {
      lo[e] = hi[e] = o[e] < 0 ? (ghost ? 0 : 1) : (ghost ? n + 1 : n);
    }
  }
}

/* Copies the region between u and buf (to_buf: u -> buf); returns the number of cells. */
static int copy_region(int n, double* u, double* buf, const int* lo, const int* hi, int to_buf)
{
  int m = 0;
  for (int i = lo[0]; i <= hi[0]; i++)
    for (int j = lo[1]; j <= hi[1]; j++)
      for (int k = lo[2]; k <= hi[2]; k++, m++) {
        if (to_buf)
          buf[m] = u[idx(n, i, j, k)];
        else
          u[idx(n, i, j, k)] = buf[m];
      }
  return m;
}

static void exchange27(Bench* b, const Layout* l, double* u, double* sendbuf, double* recvbuf)
{
  int n = l->n;
  MPI_Request req[52];
  size_t at = 0;
  int r = 0;
  for (int k = 0; k < 27; k++) {
    if (k == 13)
      continue;
    int o[3];
    int lo[3];
    int hi[3];
    offset_of(k, o);
    int c[3] = {l->coords[0] + o[0], l->coords[1] + o[1], l->coords[2] + o[2]};
    int peer = rank_of(l, c);
    region(n, o, 0, lo, hi);
    int cells = copy_region(n, u, sendbuf + at, lo, hi, 1);
    /* What we send towards o is tagged k; the peer at o sends us its cells towards -o, tagged 26 - k. */
    bench_irecv(recvbuf + at, cells, MPI_DOUBLE, peer, 26 - k, &req[r++]);
    bench_isend(b, sendbuf + at, cells, MPI_DOUBLE, peer, k, &req[r++]);
    at += (size_t)cells;
  }
  MPI_Waitall(r, req, MPI_STATUSES_IGNORE);
  at = 0;
  for (int k = 0; k < 27; k++) {
    if (k == 13)
      continue;
    int o[3];
    int lo[3];
    int hi[3];
    offset_of(k, o);
    region(n, o, 1, lo, hi);
    at += (size_t)copy_region(n, u, recvbuf + at, lo, hi, 0);
  }
}

/* Every ghost cell of the (n+2)^3 box, edges and corners included. */
static long check_ghosts27(const Layout* l, const double* u, int it)
{
  int n = l->n;
  long wrong = 0;
  for (int i = 0; i <= n + 1; i++)
    for (int j = 0; j <= n + 1; j++)
      for (int k = 0; k <= n + 1; k++) {
        if (i >= 1 && i <= n && j >= 1 && j <= n && k >= 1 && k <= n)
          continue;
        wrong += u[idx(n, i, j, k)] != value(l, (long)l->coords[0] * n + i - 1, (long)l->coords[1] * n + j - 1,
                                             (long)l->coords[2] * n + k - 1, it);
      }
  return wrong;
}

/* One 27-point Jacobi sweep; returns the sum of the new values. */
static double jacobi27(int n, const double* u, double* unew)
{
  double sum = 0;
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++)
      for (int k = 1; k <= n; k++) {
        double v = 0;
        for (int a = -1; a <= 1; a++)
          for (int bb = -1; bb <= 1; bb++)
            for (int c = -1; c <= 1; c++)
              v += u[idx(n, i + a, j + bb, k + c)];
        v /= 27.0;
        unew[idx(n, i, j, k)] = v;
        sum += v;
      }
  bench_compute(28.0 * n * n * n);
  return sum;
}

int main(int argc, char** argv)
{
  Bench b;
  bench_init(&b, &argc, &argv);
  Layout l = {.n = (int)bench_option(argc, argv, "n", 32)};
  int iters = (int)bench_option(argc, argv, "i", 4);
  int stencil = (int)bench_option(argc, argv, "s", 7);
  if (stencil != 7 && stencil != 27)
    return bench_refuse(&b, "halo3d: -s must be 7 or 27");
  MPI_Dims_create(b.size, 3, l.dims);
  int r = b.rank;
  l.coords[2] = r % l.dims[2];
  l.coords[1] = (r / l.dims[2]) % l.dims[1];
  l.coords[0] = r / (l.dims[2] * l.dims[1]);
  for (int d = 0; d < 3; d++)
    l.global[d] = (long)l.dims[d] * l.n;

  size_t cells = (size_t)(l.n + 2) * (l.n + 2) * (l.n + 2);
  double* u = calloc(cells, sizeof(double));
  double* unew = calloc(cells, sizeof(double));
  size_t halo = 6 * (size_t)l.n * l.n + 12 * (size_t)l.n + 8; /* faces, edges, corners */
  double* sendbuf = malloc(sizeof(double) * halo);
  double* recvbuf = malloc(sizeof(double) * halo);

  /* Per iteration: the sum of the field before and after the sweep, reduced once the clock stops. */
  double* sums = calloc(2 * (size_t)iters, sizeof(double));
  bench_start(&b);
  for (int it = 0; it < iters; it++) {
    fill(&l, u, it);
    bench_comm_begin(&b);
    if (stencil == 27)
      exchange27(&b, &l, u, sendbuf, recvbuf);
    else
      exchange(&b, &l, u, sendbuf, recvbuf);
    bench_comm_end(&b);
    bench_error(&b, stencil == 27 ? check_ghosts27(&l, u, it) : check_ghosts(&l, u, it));
    sums[2 * it + 1] = stencil == 27 ? jacobi27(l.n, u, unew) : jacobi(l.n, u, unew);
    for (int i = 1; i <= l.n; i++)
      for (int j = 1; j <= l.n; j++)
        for (int k = 1; k <= l.n; k++)
          sums[2 * it] += u[idx(l.n, i, j, k)];
  }
  bench_stop(&b);
  MPI_Allreduce(MPI_IN_PLACE, sums, 2 * iters, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int it = 0; it < iters; it++)
    if (fabs(sums[2 * it + 1] - sums[2 * it]) > 1e-12 * fabs(sums[2 * it]))
      bench_error(&b, b.rank == 0);
  free(sums);

  char params[128];
  snprintf(params, sizeof params, "grid=%dx%dx%d n=%d iters=%d%s", l.dims[0], l.dims[1], l.dims[2], l.n, iters,
           stencil == 27 ? " stencil=27" : "");
  int status = bench_finish(&b, "halo3d", params);
  free(u);
  free(unew);
  free(sendbuf);
  free(recvbuf);
  MPI_Finalize();
  return status;
}
