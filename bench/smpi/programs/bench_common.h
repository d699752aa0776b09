/* Shared plumbing of the SMPI benchmark programs: timing of communication phases, byte counting per
 * destination (the program's own communication graph), modelled computation and the result line. */
#ifndef RANKMAP_SMPI_BENCH_COMMON_H
#define RANKMAP_SMPI_BENCH_COMMON_H

#include <mpi.h>

typedef struct {
  int rank;
  int size;
  double comm_time;   /* simulated seconds this rank spent inside communication phases */
  double phase_start; /* MPI_Wtime at the start of the open phase */
  double start_time;  /* MPI_Wtime after the opening barrier */
  double total_time;  /* from bench_start to bench_stop */
  double* bytes_to;   /* bytes sent to each world rank, or NULL when no graph is requested */
  const char* graph_path;
  long errors; /* wrong values this rank found while checking its own results */
} Bench;

/* MPI_Init, then reads the options shared by all programs (`--graph FILE`) and removes them from argv. */
void bench_init(Bench* b, int* argc, char*** argv);
/* For a job the program cannot run: rank 0 prints `message`, every rank finalizes; returns the exit status 2. */
int bench_refuse(const Bench* b, const char* message);
/* An integer option `-name value` from the remaining arguments, or `fallback`. */
long bench_option(int argc, char** argv, const char* name, long fallback);

/* Barrier, then the clock starts: total time is measured from here. */
void bench_start(Bench* b);
/* The clock stops: checks that follow do not count. */
void bench_stop(Bench* b);
void bench_comm_begin(Bench* b);
void bench_comm_end(Bench* b);

/* Point-to-point on MPI_COMM_WORLD that records the bytes sent, so the dumped graph is exactly what
 * the program sends. Every benchmark message goes through these two calls. */
void bench_isend(Bench* b, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Request* req);
void bench_irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Request* req);

/* Charges `flops` of modelled computation to this rank's simulated clock. */
void bench_compute(double flops);

/* Counts `n` wrong values found by the caller's own check. */
void bench_error(Bench* b, long n);

/* Reduces the timings and the error count, writes the graph if asked, and prints on rank 0
 *   SMPI_RESULT program=NAME ranks=P comm_time=T total_time=T bytes=B check=ok|FAILED PARAMS
 * Returns the process exit status (non-zero when any rank found a wrong value). */
int bench_finish(Bench* b, const char* program, const char* params);

#endif
