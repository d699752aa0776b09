/* All-gather by recursive doubling, written with point-to-point messages so the pattern is explicit.
 *
 * P = 2^k ranks, each contributing a block of m doubles. In step s = 0..k-1 rank r exchanges with
 * r XOR 2^s everything it holds so far, 2^s blocks, so the last step moves half of all the data
 * between ranks P/2 apart. Check: every block of the result holds its owner's closed-form values.
 *
 * Options: -m doubles per block (128), -i repetitions (4), --graph FILE. */
#include "bench_common.h"

#include <stdio.h>
#include <stdlib.h>

static double value(int owner, long i, int rep) { return (double)owner * 1048576.0 + (double)i + 0.25 * rep; }

int main(int argc, char** argv)
{
  Bench b;
  bench_init(&b, &argc, &argv);
  long m = bench_option(argc, argv, "m", 128);
  int reps = (int)bench_option(argc, argv, "i", 4);
  if ((b.size & (b.size - 1)) != 0)
    return bench_refuse(&b, "allgather: needs a power-of-two rank count");
  double* all = malloc(sizeof(double) * (size_t)m * b.size);

  bench_start(&b);
  for (int rep = 0; rep < reps; rep++) {
    for (long i = 0; i < m; i++)
      all[(size_t)b.rank * m + i] = value(b.rank, i, rep);
    bench_comm_begin(&b);
    for (int dist = 1; dist < b.size; dist *= 2) {
      int peer = b.rank ^ dist;
      int mine = b.rank & ~(dist - 1);   /* first block of the 2^s blocks held so far */
      int theirs = peer & ~(dist - 1);
      MPI_Request req[2];
      bench_irecv(all + (size_t)theirs * m, (int)(m * dist), MPI_DOUBLE, peer, dist, &req[0]);
      bench_isend(&b, all + (size_t)mine * m, (int)(m * dist), MPI_DOUBLE, peer, dist, &req[1]);
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
    bench_comm_end(&b);
    long wrong = 0;
    for (int owner = 0; owner < b.size; owner++)
      for (long i = 0; i < m; i++)
        wrong += all[(size_t)owner * m + i] != value(owner, i, rep);
    bench_error(&b, wrong);
    bench_compute(2.0 * m * b.size); /* one pass over the gathered data */
  }
  bench_stop(&b);

  char params[96];
  snprintf(params, sizeof params, "m=%ld iters=%d", m, reps);
  int status = bench_finish(&b, "allgather", params);
  free(all);
  MPI_Finalize();
  return status;
}
