/* FFT-like transposes of a 3D FFT with a 2D pencil decomposition.
 *
 * P = pr x pc ranks (MPI_Dims_create, pr >= pc), rank = i*pc + j. Each rank holds L complex values.
 * One iteration is what a pencil 3D FFT does between its 1D transforms: an all-to-all inside the
 * process row (pc ranks, L/pc values to each), then an all-to-all inside the process column
 * (pr ranks, L/pr values to each). Each all-to-all is the pairwise-exchange algorithm (step t: send
 * to (me + t) mod n, receive from (me - t) mod n). Check: every received chunk holds the values its
 * sender computed for this receiver, in closed form.
 *
 * Options: -L complex values per rank (8192), -i iterations (2), --graph FILE. */
#include "bench_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double value(int from, int to, long k, int phase) { return (double)((from * 4099L + to) * 8 + phase) * 65536.0 + k; }

/* An all-to-all among the `n` ranks first + t*stride, t = 0..n-1; `me` is this rank's index among them. */
static long alltoall(Bench* b, int first, int stride, int n, int me, long chunk, double* send, double* recv,
                     int phase)
{
  long wrong = 0;
  int self = first + me * stride;
  for (int t = 0; t < n; t++)
    for (long k = 0; k < 2 * chunk; k++)
      send[(size_t)t * 2 * chunk + k] = value(self, first + t * stride, k, phase);
  bench_comm_begin(b);
  for (int t = 1; t < n; t++) {
    int to = (me + t) % n;
    int from = (me - t + n) % n;
    MPI_Request req[2];
    bench_irecv(recv + (size_t)from * 2 * chunk, (int)(2 * chunk), MPI_DOUBLE, first + from * stride, phase,
                &req[0]);
    bench_isend(b, send + (size_t)to * 2 * chunk, (int)(2 * chunk), MPI_DOUBLE, first + to * stride, phase,
                &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  bench_comm_end(b);
  for (long k = 0; k < 2 * chunk; k++)
    recv[(size_t)me * 2 * chunk + k] = send[(size_t)me * 2 * chunk + k];
  for (int t = 0; t < n; t++)
    for (long k = 0; k < 2 * chunk; k++)
      wrong += recv[(size_t)t * 2 * chunk + k] != value(first + t * stride, self, k, phase);
  return wrong;
}

int main(int argc, char** argv)
{
  Bench b;
  bench_init(&b, &argc, &argv);
  long L = bench_option(argc, argv, "L", 8192);
  int iters = (int)bench_option(argc, argv, "i", 2);
  int dims[2] = {0, 0};
  MPI_Dims_create(b.size, 2, dims);
  int pr = dims[0];
  int pc = dims[1];
  if (L % pr != 0 || L % pc != 0)
    return bench_refuse(&b, "fft2d: -L must be a multiple of both sides of the process grid");
  int i = b.rank / pc;
  int j = b.rank % pc;
  double* send = malloc(sizeof(double) * 2 * (size_t)L);
  double* recv = malloc(sizeof(double) * 2 * (size_t)L);

  bench_start(&b);
  long wrong = 0;
  double fft_flops = 5.0 * L * log2((double)L); /* one batch of 1D FFTs over the local pencils */
  for (int it = 0; it < iters; it++) {
    bench_compute(fft_flops);
    wrong += alltoall(&b, i * pc, 1, pc, j, L / pc, send, recv, 2 * it);
    bench_compute(fft_flops);
    wrong += alltoall(&b, j, pc, pr, i, L / pr, send, recv, 2 * it + 1);
    bench_compute(fft_flops);
  }
  bench_stop(&b);
  bench_error(&b, wrong);

  char params[96];
  snprintf(params, sizeof params, "grid=%dx%d L=%ld iters=%d", pr, pc, L, iters);
  int status = bench_finish(&b, "fft2d", params);
  free(send);
  free(recv);
  MPI_Finalize();
  return status;
}
