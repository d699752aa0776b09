/* Shared plumbing of the SMPI benchmark programs (see bench_common.h). */
#include "bench_common.h"

#ifndef RANKMAP_REAL_MPI
#include <smpi/smpi.h> /* smpi_execute_flops; built with -DRANKMAP_REAL_MPI against a real MPI, there is no model */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bench_init(Bench* b, int* argc, char*** argvp)
{
  MPI_Init(argc, argvp);
  char** argv = *argvp;
  memset(b, 0, sizeof *b);
  MPI_Comm_rank(MPI_COMM_WORLD, &b->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &b->size);
  int out = 1;
  for (int i = 1; i < *argc; i++) {
    if (strcmp(argv[i], "--graph") == 0 && i + 1 < *argc) {
      b->graph_path = argv[++i];
      continue;
    }
    argv[out++] = argv[i];
  }
  *argc = out;
  if (b->graph_path != NULL)
    b->bytes_to = calloc((size_t)b->size, sizeof(double));
}

int bench_refuse(const Bench* b, const char* message)
{
  if (b->rank == 0)
    fprintf(stderr, "%s\n", message);
  MPI_Finalize();
  return 2;
}

long bench_option(int argc, char** argv, const char* name, long fallback)
{
  for (int i = 1; i + 1 < argc; i++)
    if (argv[i][0] == '-' && strcmp(argv[i] + 1, name) == 0)
      return atol(argv[i + 1]);
  return fallback;
}

void bench_start(Bench* b)
{
  MPI_Barrier(MPI_COMM_WORLD);
  b->start_time = MPI_Wtime();
}

void bench_stop(Bench* b) { b->total_time = MPI_Wtime() - b->start_time; }

void bench_comm_begin(Bench* b) { b->phase_start = MPI_Wtime(); }

void bench_comm_end(Bench* b) { b->comm_time += MPI_Wtime() - b->phase_start; }

void bench_isend(Bench* b, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Request* req)
{
  if (b->bytes_to != NULL) {
    int type_size;
    MPI_Type_size(type, &type_size);
    b->bytes_to[dest] += (double)count * type_size;
  }
  MPI_Isend(buf, count, type, dest, tag, MPI_COMM_WORLD, req);
}

void bench_irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Request* req)
{
  MPI_Irecv(buf, count, type, source, tag, MPI_COMM_WORLD, req);
}

void bench_compute(double flops)
{
#ifndef RANKMAP_REAL_MPI
  if (flops > 0)
    smpi_execute_flops(flops);
#else
  (void)flops;
#endif
}

void bench_error(Bench* b, long n) { b->errors += n; }

/* Rank 0 writes the graph as a Matrix Market coordinate file: entry (i+1, j+1, w) = w bytes from i to j. */
static int write_graph(const Bench* b)
{
  int nnz = 0;
  for (int j = 0; j < b->size; j++)
    nnz += b->bytes_to[j] > 0;
  double* mine = malloc(sizeof(double) * 2 * (size_t)(nnz > 0 ? nnz : 1));
  int k = 0;
  for (int j = 0; j < b->size; j++)
    if (b->bytes_to[j] > 0) {
      mine[k++] = j;
      mine[k++] = b->bytes_to[j];
    }
  int* counts = NULL;
  int* displs = NULL;
  double* all = NULL;
  if (b->rank == 0)
    counts = malloc(sizeof(int) * (size_t)b->size);
  int n2 = 2 * nnz;
  MPI_Gather(&n2, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  long total = 0;
  if (b->rank == 0) {
    displs = malloc(sizeof(int) * (size_t)b->size);
    for (int r = 0; r < b->size; r++) {
      displs[r] = (int)total;
      total += counts[r];
    }
    all = malloc(sizeof(double) * (size_t)(total > 0 ? total : 1));
  }
  MPI_Gatherv(mine, n2, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int status = 0;
  if (b->rank == 0) {
    FILE* f = fopen(b->graph_path, "w");
    if (f == NULL) {
      fprintf(stderr, "cannot write the graph to %s\n", b->graph_path);
      status = 1;
    } else {
      fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n");
      fprintf(f, "%% bytes sent from rank i to rank j during the timed phases\n");
      fprintf(f, "%d %d %ld\n", b->size, b->size, total / 2);
      for (int r = 0; r < b->size; r++)
        for (int e = displs[r]; e < displs[r] + counts[r]; e += 2)
          fprintf(f, "%d %d %.17g\n", r + 1, (int)all[e] + 1, all[e + 1]);
      fclose(f);
    }
    free(all);
    free(displs);
    free(counts);
  }
  free(mine);
  return status;
}

int bench_finish(Bench* b, const char* program, const char* params)
{
  double local[2] = {b->comm_time, b->total_time};
  double worst[2];
  MPI_Reduce(local, worst, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  double sent = 0;
  if (b->bytes_to != NULL)
    for (int j = 0; j < b->size; j++)
      sent += b->bytes_to[j];
  double all_sent = 0;
  MPI_Reduce(&sent, &all_sent, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  long errors = 0;
  MPI_Allreduce(&b->errors, &errors, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  int status = errors != 0;
  if (b->graph_path != NULL)
    status |= write_graph(b);
  if (b->rank == 0) {
    printf("SMPI_RESULT program=%s ranks=%d comm_time=%.9e total_time=%.9e", program, b->size, worst[0], worst[1]);
    if (b->graph_path != NULL)
      printf(" bytes=%.17g", all_sent);
    printf(" check=%s errors=%ld %s\n", errors == 0 ? "ok" : "FAILED", errors, params);
    fflush(stdout);
  }
  free(b->bytes_to);
  return status;
}
