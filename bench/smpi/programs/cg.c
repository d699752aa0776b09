/* NAS-CG-like kernel: the communication of NPB CG's conj_grad on a 2D process grid.
 *
 * P = 2^k ranks form nprows x npcols (npcols = nprows, or 2*nprows when k is odd), rank =
 * row*npcols + col, as in NPB CG. Each iteration does what one CG iteration of NPB does:
 *   1. the row reduction of the matrix-vector product: recursive doubling inside the process row,
 *      partners at column distance 1, 2, 4, ... (NPB's reduce_exch_proc), exchanging the whole
 *      row-block vector (half of it on the first step when npcols = 2*nprows);
 *   2. the transpose exchange with NPB's exch_proc;
 *   3. two scalar sum-reductions (p.q and r.r) by recursive doubling inside the row.
 * The matrix is A(r, c) = a(r) * b(c) with small integers, so every value is exact: after step 1
 * each rank's vector is a(r) * S with S = sum_c b(c) p(c); after step 2 it holds a(c) * S for its
 * own columns; after step 3 the dot product is sum_c a(c) * S. All three are checked.
 *
 * Options: -m row-block length in doubles (16384), -i iterations (4), --graph FILE. */
#include "bench_common.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int nprows, npcols, l2npcols;
  int row, col;
  long na;                       /* global vector length */
  long firstrow, nrows;          /* this rank's row block */
  long firstcol, ncols;          /* this rank's column range */
  long keep_start, keep_len;     /* NPB send_start/send_len: the part of the row block kept and transposed */
  int exch_proc;
} Layout;

static double a_of(long r) { return (double)(1 + r % 7); }
static double b_of(long c) { return (double)(c % 5); }

static Layout layout(int rank, int size, long m)
{
  Layout l = {0};
  int k = 0;
  while ((1 << k) < size)
    k++;
  l.nprows = 1 << (k / 2);
  l.npcols = size / l.nprows;
  l.l2npcols = k - k / 2;
  l.row = rank / l.npcols;
  l.col = rank % l.npcols;
  l.na = m * l.nprows;
  l.nrows = m;
  l.firstrow = (long)l.row * m;
  if (l.npcols == l.nprows) {
    l.ncols = l.na / l.npcols;
    l.firstcol = (long)l.col * l.ncols;
    l.keep_start = 0;
    l.keep_len = m;
    l.exch_proc = (rank % l.nprows) * l.nprows + rank / l.nprows;
  } else {
    long block = l.na / (l.npcols / 2);
    l.firstcol = (long)(l.col / 2) * block + (rank % 2) * (block / 2);
    l.ncols = block / 2;
    l.keep_start = (rank % 2) * (m / 2);
    l.keep_len = m / 2;
    l.exch_proc = 2 * ((rank / 2 % l.nprows) * l.nprows + rank / 2 / l.nprows) + rank % 2;
  }
  return l;
}

/* Column partner at distance `dist` inside the row (NPB: mod(col + dist, 2 dist) + col / (2 dist) * 2 dist). */
static int row_partner(const Layout* l, int dist)
{
  int div = 2 * dist;
  int c = (l->col + dist) % div + l->col / div * div;
  return l->row * l->npcols + c;
}

/* Step 1: w <- sum over the process row of w, on the kept part (NPB's reduce loop, i = l2npcols..1). */
static void row_reduce(Bench* b, const Layout* l, double* w, double* q)
{
  for (int step = 0; step < l->l2npcols; step++) {
    int peer = row_partner(l, 1 << step);
    long send_start = l->keep_start;
    long send_len = l->keep_len;
    if (step == 0 && l->npcols != l->nprows) {
      /* The first exchange hands the partner the half it keeps. */
      send_start = l->keep_start == 0 ? l->keep_len : 0;
      send_len = l->nrows - l->keep_len;
    }
    MPI_Request req[2];
    bench_irecv(q + l->keep_start, (int)l->keep_len, MPI_DOUBLE, peer, step, &req[0]);
    bench_isend(b, w + send_start, (int)send_len, MPI_DOUBLE, peer, step, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    for (long j = l->keep_start; j < l->keep_start + l->keep_len; j++)
      w[j] += q[j];
  }
}

/* Step 3: a scalar sum over the process row by recursive doubling. */
static double row_sum(Bench* b, const Layout* l, double sum)
{
  for (int step = 0; step < l->l2npcols; step++) {
    int peer = row_partner(l, l->npcols >> (step + 1));
    double other;
    MPI_Request req[2];
    bench_irecv(&other, 1, MPI_DOUBLE, peer, 100 + step, &req[0]);
    bench_isend(b, &sum, 1, MPI_DOUBLE, peer, 100 + step, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    sum += other;
  }
  return sum;
}

int main(int argc, char** argv)
{
  Bench b;
  bench_init(&b, &argc, &argv);
  long m = bench_option(argc, argv, "m", 16384);
  int iters = (int)bench_option(argc, argv, "i", 4);
  if ((b.size & (b.size - 1)) != 0 || m % 2 != 0)
    return bench_refuse(&b, "cg: needs a power-of-two rank count and an even -m");
  Layout l = layout(b.rank, b.size, m);

  double s_total = 0; /* S = sum over all columns of b(c) * p(c), with p = 1 */
  for (long c = 0; c < l.na; c++)
    s_total += b_of(c);
  double dot_total = 0; /* sum over all columns of a(c) * S */
  for (long c = 0; c < l.na; c++)
    dot_total += a_of(c) * s_total;

  double* w = malloc(sizeof(double) * (size_t)m);
  double* q = malloc(sizeof(double) * (size_t)(m > l.ncols ? m : l.ncols));
  bench_start(&b);
  for (int it = 0; it < iters; it++) {
    double s_local = 0;
    for (long c = l.firstcol; c < l.firstcol + l.ncols; c++)
      s_local += b_of(c);
    for (long j = 0; j < l.nrows; j++)
      w[j] = a_of(l.firstrow + j) * s_local;
    bench_compute(30.0 * l.nrows); /* a sparse matvec with 15 nonzeros per local row */

    bench_comm_begin(&b);
    row_reduce(&b, &l, w, q);
    if (l.l2npcols > 0) {
      MPI_Request req[2];
      bench_irecv(q, (int)l.ncols, MPI_DOUBLE, l.exch_proc, 50, &req[0]);
      bench_isend(&b, w + l.keep_start, (int)l.keep_len, MPI_DOUBLE, l.exch_proc, 50, &req[1]);
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    } else {
      for (long j = 0; j < l.ncols; j++)
        q[j] = w[j];
    }
    bench_comm_end(&b);

    long wrong = 0;
    for (long j = 0; j < l.keep_len; j++)
      wrong += w[l.keep_start + j] != a_of(l.firstrow + l.keep_start + j) * s_total;
    double pq = 0;
    for (long j = 0; j < l.ncols; j++) {
      wrong += q[j] != a_of(l.firstcol + j) * s_total;
      pq += q[j];
    }
    bench_compute(10.0 * l.ncols); /* the vector updates of one CG iteration */

    bench_comm_begin(&b);
    double d = row_sum(&b, &l, pq);
    double rho = row_sum(&b, &l, pq);
    bench_comm_end(&b);
    wrong += d != dot_total;
    wrong += rho != dot_total;
    bench_error(&b, wrong);
  }
  bench_stop(&b);

  char params[128];
  snprintf(params, sizeof params, "grid=%dx%d m=%ld iters=%d", l.nprows, l.npcols, m, iters);
  int status = bench_finish(&b, "cg", params);
  free(w);
  free(q);
  MPI_Finalize();
  return status;
}
