/* Every kind of traffic the profiler counts, with sizes that make each edge's bytes known exactly:
 * sends on MPI_COMM_WORLD and on a sub-communicator whose ranks run backwards, a persistent send
 * started three times, MPI_Sendrecv, a send to MPI_PROC_NULL (not counted), neighbourhood
 * collectives on a Cartesian and a distributed-graph communicator, and collectives, split into two
 * phases by MPI_Pcontrol. check_profile.py computes the expected profile from the same rules.
 * Needs 8 processes. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { P = 8 };

static int mod(int a) { return ((a % P) + P) % P; }

static void phase_one(int rank) {
  char bytes[100] = {0}, in[100];
  MPI_Send(bytes, 100, MPI_CHAR, mod(rank + 1), 1, MPI_COMM_WORLD);
  MPI_Recv(in, 100, MPI_CHAR, mod(rank - 1), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

  /* Sub-communicator of one parity, ranked backwards: sub rank s sends to sub rank s + 1. */
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  int s, n, ints[50] = {0}, got[50];
  MPI_Comm_rank(half, &s);
  MPI_Comm_size(half, &n);
  MPI_Request pair[2];
  MPI_Irecv(got, 50, MPI_INT, (s + n - 1) % n, 2, half, &pair[0]);
  MPI_Isend(ints, 50, MPI_INT, (s + 1) % n, 2, half, &pair[1]);
  MPI_Waitall(2, pair, MPI_STATUSES_IGNORE);
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, half);
  MPI_Comm_free(&half);

  double out[30] = {0}, back[30];
  MPI_Request persistent[2];
  MPI_Send_init(out, 30, MPI_DOUBLE, mod(rank + 2), 3, MPI_COMM_WORLD, &persistent[0]);
  MPI_Recv_init(back, 30, MPI_DOUBLE, mod(rank - 2), 3, MPI_COMM_WORLD, &persistent[1]);
  for (int i = 0; i < 3; ++i) {
    MPI_Startall(2, persistent);
    MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&persistent[0]);
  MPI_Request_free(&persistent[1]);

  MPI_Sendrecv(bytes, 16, MPI_BYTE, mod(rank + 3), 4, in, 16, MPI_BYTE, mod(rank - 3), 4, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Ssend(bytes, 50, MPI_BYTE, MPI_PROC_NULL, 5, MPI_COMM_WORLD);
  int four[4] = {1, 2, 3, 4};
  MPI_Allreduce(MPI_IN_PLACE, four, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

static void phase_two(int rank) {
  int dims[2] = {2, 4}, periods[2] = {1, 1};
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  double to[4] = {0}, from[4];
  MPI_Neighbor_alltoall(to, 1, MPI_DOUBLE, from, 1, MPI_DOUBLE, cart);
  MPI_Comm_free(&cart);

  int destinations[2] = {mod(rank + 5), mod(rank + 6)}, sources[2] = {mod(rank - 5), mod(rank - 6)};
  MPI_Comm graph;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, MPI_UNWEIGHTED, 2, destinations, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &graph);
  int sendcounts[2] = {10, 20}, sdispls[2] = {0, 10}, recvcounts[2] = {10, 20}, rdispls[2] = {0, 10};
  int send[30] = {0}, recv[30];
  MPI_Neighbor_alltoallv(send, sendcounts, sdispls, MPI_INT, recv, recvcounts, rdispls, MPI_INT, graph);
  short three[3] = {0}, gathered[6];
  MPI_Request request;
  MPI_Ineighbor_allgather(three, 3, MPI_SHORT, gathered, 3, MPI_SHORT, graph, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Comm_free(&graph);

  char block[1000];
  memset(block, rank == 0 ? 7 : 0, sizeof block);
  MPI_Bcast(block, 1000, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != P) {
    if (rank == 0) fprintf(stderr, "traffic_kinds needs %d processes, not %d\n", P, size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  phase_one(rank);
  MPI_Pcontrol(1);
  phase_two(rank);
  if (rank == 0) printf("OK\n");
  MPI_Finalize();
  return 0;
}
