/* A toy diffusion Monte Carlo population, rebalanced with rankmap_alias_balance every step.
 *
 * Walkers diffuse in the 3D harmonic well V = r^2 / 2 and branch: each is replaced by
 * floor(w + u) copies, w = exp(-tau (V - E_T)), with the trial energy E_T steering the
 * population towards its target; its running mean estimates the ground-state energy (1.5,
 * lowered by about 0.1 by the per-process branching bias below). Branching leaves the processes unevenly loaded; after every step the alias method
 * restores ceil(N/P) or floor(N/P) walkers per process, each process receiving at most one
 * message. Rank 0 prints, per step, the population, the imbalance (largest count over the
 * mean, minus one) before and after, and the slowest process's balance time.
 *
 * usage: qmc_walkers [steps=40] [walkers per process=200]
 */
#include <rankmap.h>

#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  double r[3];
} Walker;

static uint64_t rng_state;

static double uniform01(void) {
  /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return (double)(z >> 11) * 0x1.0p-53;
}

static double gaussian(void) {
  const double u = uniform01() + 1e-300;
  return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * uniform01());
}

static double potential(const Walker* w) {
  return 0.5 * (w->r[0] * w->r[0] + w->r[1] * w->r[1] + w->r[2] * w->r[2]);
}

/* Moves and branches the walkers in place; copies beyond the capacity are dropped. The rate
 * of branching differs between processes (a crude stand-in for walkers in different regions),
 * which is what makes the load uneven. Returns the new count. */
static long long diffuse_and_branch(Walker* walkers, long long count, long long capacity, double tau, double e_trial,
                                    double bias) {
  Walker* next = malloc((size_t)capacity * sizeof(Walker));
  long long n = 0;
  for (long long i = 0; i < count; ++i) {
    Walker w = walkers[i];
    for (int d = 0; d < 3; ++d) w.r[d] += sqrt(tau) * gaussian();
    const long long copies = (long long)floor(exp(-tau * (potential(&w) - e_trial) + bias) + uniform01());
    for (long long c = 0; c < copies && n < capacity; ++c) next[n++] = w;
  }
  memcpy(walkers, next, (size_t)n * sizeof(Walker));
  free(next);
  return n;
}

static void imbalance(long long count, MPI_Comm comm, long long* total, double* max_over_mean) {
  long long sum = 0, max = 0;
  int size = 0;
  MPI_Comm_size(comm, &size);
  MPI_Allreduce(&count, &sum, 1, MPI_LONG_LONG, MPI_SUM, comm);
  MPI_Allreduce(&count, &max, 1, MPI_LONG_LONG, MPI_MAX, comm);
  *total = sum;
  *max_over_mean = sum > 0 ? (double)max * size / (double)sum - 1.0 : 0.0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int steps = argc > 1 ? atoi(argv[1]) : 40;
  const long long per_rank = argc > 2 ? atoll(argv[2]) : 200;
  const long long capacity = 4 * per_rank;
  const double tau = 0.05;
  rng_state = 0x1234567ULL + (uint64_t)rank * 0x9E3779B97F4A7C15ULL;

  MPI_Datatype walker_type;
  MPI_Type_contiguous(3, MPI_DOUBLE, &walker_type);
  MPI_Type_commit(&walker_type);

  Walker* walkers = malloc((size_t)capacity * sizeof(Walker));
  long long count = per_rank;
  for (long long i = 0; i < count; ++i)
    for (int d = 0; d < 3; ++d) walkers[i].r[d] = gaussian();

  double e_trial = 1.5, e_sum = 0.0;
  const double target = (double)per_rank * size;
  double worst_after = 0.0, slowest = 0.0;
  int status = RANKMAP_SUCCESS;
  if (rank == 0) printf("# step  walkers  imbalance_before  imbalance_after  balance_ms  E_T\n");
  for (int step = 0; step < steps && status == RANKMAP_SUCCESS; ++step) {
    const double bias = 0.15 * sin(0.3 * step + 6.283185307179586 * rank / size);
    count = diffuse_and_branch(walkers, count, capacity, tau, e_trial, bias);
    long long total = 0;
    double before = 0.0, after = 0.0;
    imbalance(count, MPI_COMM_WORLD, &total, &before);

    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    long long new_count = count;
    status = rankmap_alias_balance(walkers, count, capacity, walker_type, MPI_COMM_WORLD, &new_count);
    double elapsed = MPI_Wtime() - t0, max_elapsed = 0.0;
    MPI_Allreduce(&elapsed, &max_elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    count = new_count;
    imbalance(count, MPI_COMM_WORLD, &total, &after);

    /* Population control: E_T is the mean of its past values, corrected by the population's
     * distance from its target. */
    e_sum += e_trial;
    e_trial = e_sum / (step + 1) - log((double)total / target);
    if (after > worst_after) worst_after = after;
    if (max_elapsed > slowest) slowest = max_elapsed;
    if (rank == 0)
      printf("%6d %8lld %17.3f %16.3f %11.3f %6.3f\n", step, total, before, after, max_elapsed * 1e3, e_trial);
  }
  if (rank == 0) {
    if (status == RANKMAP_SUCCESS)
      printf("balanced %d steps on %d processes: largest imbalance after balancing %.3f, slowest balance %.3f ms\n",
             steps, size, worst_after, slowest * 1e3);
    else
      printf("balance failed: %s\n", rankmap_strerror(status));
  }
  free(walkers);
  MPI_Type_free(&walker_type);
  MPI_Finalize();
  return status == RANKMAP_SUCCESS ? 0 : 1;
}
