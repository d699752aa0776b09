/* NAS-BT/SP-like multi-partition sweeps: the communication of NPB BT and SP's x/y/z solves and copy_faces.
 *
 * P = q^2 ranks; as in NPB's make_set, rank = j*q + i. The domain is a q x q x q grid of cells of n^3
 * points; rank (i, j) owns the q cells c = 0..q-1 at cell coordinates ((i + c) mod q, (j - c) mod q, c):
 * one cell in every slab of every direction, NPB's multi-partition. The owner of the next cell is
 * (i+1, j) along x, (i, j+1) along y and (i-1, j+1) along z, all modulo q (NPB's successor()).
 * One time step is
 *   copy_faces: one message to each of the 6 neighbours, holding 2 layers of 5 variables of every
 *               face of the rank's cells that touches that neighbour's cells (the domain is not periodic);
 *   x, y and z solves: a forward sweep over the q slabs (each rank works on its cell in slab s and sends
 *               the face to the next cell's owner: `fwd` doubles per face point), then a backward sweep
 *               (`bwd` doubles per face point).
 * BT sends a 5x5 block and a 5-vector forward (fwd = 30) and a 5-vector back (bwd = 5); SP sends 22
 * doubles per point forward and 10 back, the figures `rankmap gen` uses for nas-bt and nas-sp.
 * Check: each sweep computes a prefix sum (forward) and a suffix sum (backward) of a closed-form cell
 * value along every grid line, so every received face is compared with its exact value; every
 * copy_faces element is compared with the value of the cell it came from.
 *
 * Built against a real MPI (-DRANKMAP_REAL_MPI), MPI_Pcontrol(1) marks the start of each sweep, so
 * that a profile with RANKMAP_PROFILE_PHASES=pcontrol records one time step as seven phases:
 * copy_faces (with the set-up before it, which sends nothing point-to-point), then the forward
 * and backward sweeps along x, y and z (sweep_phases.py's order).
 *
 * Options: `-sp 1` for SP (default BT), -n cell edge (8), -i time steps (1), --graph FILE. */
#include "bench_common.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int q, i, j, n;
  int fwd, bwd; /* doubles per face point in the forward and backward sweeps */
} Layout;

static int mod(int x, int q) { return ((x % q) + q) % q; }
static int rank_of(const Layout* l, int i, int j) { return mod(j, l->q) * l->q + mod(i, l->q); }

/* The cell this rank owns in slab `s` of direction `dir` (0 x, 1 y, 2 z). */
static int cell_in_slab(const Layout* l, int dir, int s)
{
  if (dir == 0)
    return mod(s - l->i, l->q);
  if (dir == 1)
    return mod(l->j - s, l->q);
  return s;
}

static void cell_coords(const Layout* l, int c, int* xyz)
{
  xyz[0] = mod(l->i + c, l->q);
  xyz[1] = mod(l->j - c, l->q);
  xyz[2] = c;
}

/* Owner of the next (+1) or previous (-1) cell along dir. */
static int neighbour(const Layout* l, int dir, int step)
{
  if (dir == 0)
    return rank_of(l, l->i + step, l->j);
  if (dir == 1)
    return rank_of(l, l->i, l->j + step);
  return rank_of(l, l->i - step, l->j + step);
}

/* A grid line along dir through cell `xyz` at face point (u, v): a number unique among all lines. */
static double line_id(const Layout* l, int dir, const int* xyz, int u, int v)
{
  int d1 = (dir + 1) % 3;
  int d2 = (dir + 2) % 3;
  long g1 = (long)xyz[d1] * l->n + u;
  long g2 = (long)xyz[d2] * l->n + v;
  return (double)(1 + (g1 * l->q * l->n + g2) % 1021);
}

/* Prefix (forward) or suffix (backward) sum along the line, through slab s: exact small integers. */
static double sweep_value(const Layout* l, int forward, int s, double id)
{
  long k = forward ? s + 1 : l->q - s;
  return id * (double)(k * (k + 1) / 2);
}

static long sweep(Bench* b, const Layout* l, int dir, int forward, double* in, double* out)
{
  int q = l->q;
  int n = l->n;
  int width = forward ? l->fwd : l->bwd;
  int count = n * n * width;
  int to = neighbour(l, dir, forward ? 1 : -1);
  int from = neighbour(l, dir, forward ? -1 : 1);
  long wrong = 0;
  MPI_Request recv = MPI_REQUEST_NULL;
  for (int stage = 0; stage < q; stage++) {
    int s = forward ? stage : q - 1 - stage;
    int xyz[3];
    cell_coords(l, cell_in_slab(l, dir, s), xyz);
    /* Solves and messages interleave: only the time inside the MPI calls counts as communication. */
    if (stage > 0) {
      bench_comm_begin(b);
      MPI_Wait(&recv, MPI_STATUS_IGNORE);
      bench_comm_end(b);
    }
    /* The solve on this cell: extend every line's running sum by this slab. */
    for (int u = 0; u < n; u++)
      for (int v = 0; v < n; v++) {
        double id = line_id(l, dir, xyz, u, v);
        double before = stage > 0 ? sweep_value(l, forward, forward ? s - 1 : s + 1, id) : 0;
        double* point = out + (u * n + v) * width;
        for (int w = 0; w < width; w++) {
          double got = stage > 0 ? in[(u * n + v) * width + w] : 0;
          wrong += got != before;
          point[w] = got + id * (forward ? s + 1 : q - s);
        }
      }
    bench_compute((forward ? 60.0 : 20.0) * n * n * n);
    if (stage < q - 1) {
      /* The next stage's receive is posted before this stage's send waits, so the sweep needs no
       * buffering in MPI: every send finds its receive posted. */
      MPI_Request send;
      bench_comm_begin(b);
      bench_irecv(in, count, MPI_DOUBLE, from, stage + 1, &recv);
      bench_isend(b, out, count, MPI_DOUBLE, to, stage + 1, &send);
      MPI_Wait(&send, MPI_STATUS_IGNORE);
      bench_comm_end(b);
    }
  }
  return wrong;
}

/* Value of variable w, layer k of cell xyz's face towards (dir, side), at face point (u, v). */
static double face_value(const Layout* l, const int* xyz, int dir, int side, int k, int u, int v, int w)
{
  long cell = ((long)xyz[0] * l->q + xyz[1]) * l->q + xyz[2];
  return (double)(((((cell * 6 + dir * 2 + side) * 2 + k) * l->n + u) * l->n + v) * 5 + w);
}

/* The cells of this rank whose neighbour along (dir, side) exists, in cell order. */
static int faces_towards(const Layout* l, int dir, int side, int* cells)
{
  int count = 0;
  for (int c = 0; c < l->q; c++) {
    int xyz[3];
    cell_coords(l, c, xyz);
    int next = xyz[dir] + (side ? 1 : -1);
    if (next >= 0 && next < l->q)
      cells[count++] = c;
  }
  return count;
}

static long copy_faces(Bench* b, const Layout* l, double* sendbuf, double* recvbuf, int* cells)
{
  int n = l->n;
  int per_face = 2 * n * n * 5;
  long wrong = 0;
  MPI_Request req[12];
  size_t offset[6];
  size_t at = 0;
  for (int f = 0; f < 6; f++) {
    int dir = f / 2;
    int side = f % 2;
    int count = faces_towards(l, dir, side, cells);
    offset[f] = at;
    double* out = sendbuf + at;
    for (int i = 0; i < count; i++) {
      int xyz[3];
      cell_coords(l, cells[i], xyz);
      for (int k = 0; k < 2; k++)
        for (int u = 0; u < n; u++)
          for (int v = 0; v < n; v++)
            for (int w = 0; w < 5; w++)
              *out++ = face_value(l, xyz, dir, side, k, u, v, w);
    }
    /* The neighbour on `side` sends us the same number of faces: the layout is symmetric. */
    int peer = neighbour(l, dir, side ? 1 : -1);
    bench_irecv(recvbuf + at, count * per_face, MPI_DOUBLE, peer, 1000 + 2 * dir + (1 - side), &req[f]);
    bench_isend(b, sendbuf + at, count * per_face, MPI_DOUBLE, peer, 1000 + f, &req[6 + f]);
    at += (size_t)count * per_face;
  }
  MPI_Waitall(12, req, MPI_STATUSES_IGNORE);
  for (int f = 0; f < 6; f++) {
    int dir = f / 2;
    int side = f % 2;
    int count = faces_towards(l, dir, side, cells);
    const double* in = recvbuf + offset[f];
    for (int i = 0; i < count; i++) {
      /* Our cell c's neighbour on `side` is the peer's cell sending towards us (the other side). */
      int xyz[3];
      cell_coords(l, cells[i], xyz);
      xyz[dir] += side ? 1 : -1;
      for (int k = 0; k < 2; k++)
        for (int u = 0; u < n; u++)
          for (int v = 0; v < n; v++)
            for (int w = 0; w < 5; w++)
              wrong += *in++ != face_value(l, xyz, dir, 1 - side, k, u, v, w);
    }
  }
  return wrong;
}

int main(int argc, char** argv)
{
  Bench b;
  bench_init(&b, &argc, &argv);
  int sp = bench_option(argc, argv, "sp", 0) != 0;
  Layout l = {.n = (int)bench_option(argc, argv, "n", 8), .fwd = sp ? 22 : 30, .bwd = sp ? 10 : 5};
  int steps = (int)bench_option(argc, argv, "i", 1);
  l.q = 1;
  while (l.q * l.q < b.size)
    l.q++;
  if (l.q * l.q != b.size)
    return bench_refuse(&b, "sweep: needs a square rank count");
  l.i = b.rank % l.q;
  l.j = b.rank / l.q;

  size_t face = (size_t)l.n * l.n;
  double* in = malloc(sizeof(double) * face * l.fwd);
  double* out = malloc(sizeof(double) * face * l.fwd);
  /* copy_faces: at most q faces of 2 layers x 5 variables towards each of the 6 neighbours. */
  double* sendbuf = malloc(sizeof(double) * face * 10 * 6 * l.q);
  double* recvbuf = malloc(sizeof(double) * face * 10 * 6 * l.q);
  int* cells = malloc(sizeof(int) * l.q);

  bench_start(&b);
  long wrong = 0;
  for (int step = 0; step < steps; step++) {
    bench_comm_begin(&b);
    wrong += copy_faces(&b, &l, sendbuf, recvbuf, cells);
    bench_comm_end(&b);
    bench_compute(200.0 * l.q * face * l.n); /* compute_rhs on all owned cells */
    for (int dir = 0; dir < 3; dir++)
      for (int forward = 1; forward >= 0; forward--) {
#ifdef RANKMAP_REAL_MPI
        MPI_Pcontrol(1); /* SimGrid 3.32's SMPI aborts on MPI_Pcontrol ("not yet implemented") */
#endif
        wrong += sweep(&b, &l, dir, forward, in, out);
      }
  }
  bench_stop(&b);
  bench_error(&b, wrong);

  char params[128];
  snprintf(params, sizeof params, "variant=%s grid=%dx%d n=%d steps=%d", sp ? "sp" : "bt", l.q, l.q, l.n, steps);
  int status = bench_finish(&b, sp ? "sp" : "bt", params);
  free(in);
  free(out);
  free(sendbuf);
  free(recvbuf);
  free(cells);
  MPI_Finalize();
  return status;
}
