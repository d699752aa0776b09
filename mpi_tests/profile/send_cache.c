/* What the profiler's counting fast path (a send counted before the MPI call) must get right, with
 * sizes that make each edge's bytes known exactly: several peers in turn, two basic types in turn, a
 * derived type freed and another created (MPI may hand out the same handle), sends MPI refuses for a
 * bad tag (not counted), and a new phase after MPI_Pcontrol. check_profile.py --program send_cache
 * computes the expected profile. Needs 8 processes; errors return, so a refused send can be seen. */
#include <mpi.h>
#include <limits.h>
#include <stdio.h>

enum { P = 8, ROUNDS = 10, PEERS = 4 };

static int mod(int a) { return ((a % P) + P) % P; }

/* Round r sends k items to rank + k for k = 1..4: ints on even rounds, doubles on odd ones. */
static void rounds(int rank) {
  double out[PEERS + 1] = {0}, in[PEERS + 1][PEERS + 1];
  for (int round = 0; round < ROUNDS; ++round) {
    MPI_Datatype type = round % 2 ? MPI_DOUBLE : MPI_INT;
    MPI_Request requests[2 * PEERS];
    for (int k = 1; k <= PEERS; ++k) MPI_Irecv(in[k], k, type, mod(rank - k), k, MPI_COMM_WORLD, &requests[k - 1]);
    for (int k = 1; k <= PEERS; ++k) MPI_Isend(out, k, type, mod(rank + k), k, MPI_COMM_WORLD, &requests[PEERS + k - 1]);
    MPI_Waitall(2 * PEERS, requests, MPI_STATUSES_IGNORE);
  }
}

/* Three sends of 2 items of a contiguous type of `n` copies of `base` to rank + 1; the type is freed after. */
static void derived(int rank, int n, MPI_Datatype base) {
  MPI_Datatype type;
  MPI_Type_contiguous(n, base, &type);
  MPI_Type_commit(&type);
  double out[2 * 5] = {0}, in[2 * 5];
  for (int i = 0; i < 3; ++i) {
    MPI_Send(out, 2, type, mod(rank + 1), 9, MPI_COMM_WORLD);
    MPI_Recv(in, 2, type, mod(rank - 1), 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Type_free(&type);
}

/* A valid int to rank + 1 (the fast path's own case), then the same send with tags MPI refuses. */
static int refused_tags(int rank) {
  int one = 1, got = 0, *ub = NULL, found = 0, refused = 1;
  MPI_Sendrecv(&one, 1, MPI_INT, mod(rank + 1), 5, &got, 1, MPI_INT, mod(rank - 1), 5, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Send(&one, 1, MPI_INT, mod(rank + 1), 6, MPI_COMM_WORLD);
  MPI_Recv(&got, 1, MPI_INT, mod(rank - 1), 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  refused &= MPI_Send(&one, 1, MPI_INT, mod(rank + 1), -5, MPI_COMM_WORLD) != MPI_SUCCESS;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &found);
  if (found && *ub < INT_MAX) refused &= MPI_Send(&one, 1, MPI_INT, mod(rank + 1), *ub + 1, MPI_COMM_WORLD) != MPI_SUCCESS;
  return refused;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != P) MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  rounds(rank);
  derived(rank, 3, MPI_INT);
  derived(rank, 5, MPI_DOUBLE);
  int refused = refused_tags(rank);

  MPI_Pcontrol(1);
  int seven[7] = {0}, back[7];
  for (int i = 0; i < 3; ++i) {
    MPI_Send(seven, 7, MPI_INT, mod(rank + 1), 7, MPI_COMM_WORLD);
    MPI_Recv(back, 7, MPI_INT, mod(rank - 1), 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  int all = 0;
  MPI_Allreduce(&refused, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? "OK\n" : "FAILED: MPI accepted a send with a bad tag\n");
  MPI_Finalize();
  return 0;
}
