/* Records the permutation Open MPI's treematch returns for a communication graph.
 *
 * Run under `mpiexec.openmpi --mca topo treematch -n P ./treematch_perm GRAPH.mtx OUT`. Every rank
 * reads the Matrix Market graph (entry (i, j, w): w bytes from rank i-1 to rank j-1), passes its own
 * in- and out-edges to MPI_Dist_graph_create_adjacent with reorder = 1, and rank 0 writes OUT:
 *   one line "old new" per old rank, the rank that process holds in the new communicator,
 * then prints whether the permutation is the identity. Weights are scaled to fit MPI's int weights. */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int src;
  int dst;
  double w;
} Entry;

/* Reads the whole graph; returns the entry count, or -1 after printing why. */
static long read_graph(const char* path, int size, Entry** out)
{
  FILE* f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "treematch_perm: cannot open %s\n", path);
    return -1;
  }
  char line[256];
  long rows = -1, cols = -1, nnz = -1;
  long number = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    number++;
    if (line[0] == '%')
      continue;
    if (sscanf(line, "%ld %ld %ld", &rows, &cols, &nnz) != 3) {
      fprintf(stderr, "treematch_perm: %s:%ld: expected 'rows cols entries'\n", path, number);
      fclose(f);
      return -1;
    }
    break;
  }
  if (rows != size || cols != size || nnz < 0) {
    fprintf(stderr, "treematch_perm: %s is a %ldx%ld graph, the job has %d ranks\n", path, rows, cols, size);
    fclose(f);
    return -1;
  }
  Entry* e = malloc(sizeof(Entry) * (size_t)(nnz > 0 ? nnz : 1));
  long k = 0;
  while (k < nnz && fgets(line, sizeof line, f) != NULL) {
    number++;
    if (line[0] == '%')
      continue;
    if (sscanf(line, "%d %d %lf", &e[k].src, &e[k].dst, &e[k].w) != 3 || e[k].src < 1 || e[k].src > size ||
        e[k].dst < 1 || e[k].dst > size || !(e[k].w >= 0)) {
      fprintf(stderr, "treematch_perm: %s:%ld: bad entry\n", path, number);
      free(e);
      fclose(f);
      return -1;
    }
    e[k].src--;
    e[k].dst--;
    k++;
  }
  fclose(f);
  if (k != nnz) {
    fprintf(stderr, "treematch_perm: %s has %ld entries, the header says %ld\n", path, k, nnz);
    free(e);
    return -1;
  }
  *out = e;
  return k;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 3) {
    if (rank == 0)
      fprintf(stderr, "usage: treematch_perm GRAPH.mtx OUT\n");
    MPI_Finalize();
    return 2;
  }
  Entry* e = NULL;
  long n = read_graph(argv[1], size, &e);
  int ok = n >= 0;
  int all_ok;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_ok) {
    MPI_Finalize();
    return 1;
  }
  double wmax = 0;
  for (long k = 0; k < n; k++)
    wmax = e[k].w > wmax ? e[k].w : wmax;
  double scale = wmax > 1e6 ? 1e6 / wmax : 1.0;

  int indeg = 0, outdeg = 0;
  for (long k = 0; k < n; k++) {
    indeg += e[k].dst == rank && e[k].src != rank;
    outdeg += e[k].src == rank && e[k].dst != rank;
  }
  int* sources = malloc(sizeof(int) * (size_t)(indeg + 1));
  int* sweights = malloc(sizeof(int) * (size_t)(indeg + 1));
  int* dests = malloc(sizeof(int) * (size_t)(outdeg + 1));
  int* dweights = malloc(sizeof(int) * (size_t)(outdeg + 1));
  int i = 0, o = 0;
  for (long k = 0; k < n; k++) {
    if (e[k].src == e[k].dst)
      continue;
    int w = (int)(e[k].w * scale + 0.5);
    if (w < 1)
      w = 1;
    if (e[k].dst == rank) {
      sources[i] = e[k].src;
      sweights[i++] = w;
    }
    if (e[k].src == rank) {
      dests[o] = e[k].dst;
      dweights[o++] = w;
    }
  }
  MPI_Comm graph;
  double t0 = MPI_Wtime();
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indeg, sources, sweights, outdeg, dests, dweights, MPI_INFO_NULL, 1,
                                 &graph);
  double seconds = MPI_Wtime() - t0;
  int new_rank;
  MPI_Comm_rank(graph, &new_rank);
  int* all = rank == 0 ? malloc(sizeof(int) * (size_t)size) : NULL;
  MPI_Gather(&new_rank, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int status = 0;
  if (rank == 0) {
    FILE* f = fopen(argv[2], "w");
    if (f == NULL) {
      fprintf(stderr, "treematch_perm: cannot write %s\n", argv[2]);
      status = 1;
    } else {
      int moved = 0;
      for (int r = 0; r < size; r++) {
        fprintf(f, "%d %d\n", r, all[r]);
        moved += all[r] != r;
      }
      fclose(f);
      printf("treematch_perm: %d ranks, %d moved by reorder, create took %.3f s\n", size, moved, seconds);
    }
    free(all);
  }
  MPI_Comm_free(&graph);
  free(sources);
  free(sweights);
  free(dests);
  free(dweights);
  free(e);
  MPI_Finalize();
  return status;
}
