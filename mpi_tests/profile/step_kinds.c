/* Every call that ends a step under RANKMAP_PROFILE_PHASES=steps, one step each: MPI_Recv, Wait,
 * Waitall, Waitany, Waitsome, Test, Testall, Testany, Testsome, Sendrecv and a blocking collective.
 * Step s sends 4*s ints to the peers of its pattern; steps with the same peers are one phase, in
 * order of first appearance: rank+1 (phase 1), rank+2 (2), rank+3 (3), rank+1 and rank+2 (4).
 * Completions after which nothing was sent (the second wait of a step) end no step, and tests that
 * find nothing complete end none. check_profile.py --program step_kinds computes the expected
 * profile. Needs 8 processes. */
#include <mpi.h>
#include <stdio.h>

enum { P = 8, MAX_INTS = 4 * 12 };

static int mod(int a) { return ((a % P) + P) % P; }

static int out[MAX_INTS], in[2][MAX_INTS];

/* Posts the receive(s) and send(s) of step `s` to rank + each offset: requests[0..n) receives,
 * requests[n..2n) sends. */
static int post(int rank, int s, const int* offsets, int n, MPI_Request* requests) {
  for (int i = 0; i < n; ++i)
    MPI_Irecv(in[i], 4 * s, MPI_INT, mod(rank - offsets[i]), s, MPI_COMM_WORLD, &requests[i]);
  for (int i = 0; i < n; ++i)
    MPI_Isend(out, 4 * s, MPI_INT, mod(rank + offsets[i]), s, MPI_COMM_WORLD, &requests[n + i]);
  return 2 * n;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, flag, index, outcount, indices[4];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != P) {
    if (rank == 0) fprintf(stderr, "step_kinds: needs %d processes\n", P);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int one[] = {1}, two[] = {2}, three[] = {3}, both[] = {1, 2};
  MPI_Request r[4];

  /* 1: MPI_Recv */
  MPI_Isend(out, 4, MPI_INT, mod(rank + 1), 1, MPI_COMM_WORLD, &r[0]);
  MPI_Recv(in[0], 4, MPI_INT, mod(rank - 1), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  /* 2: MPI_Waitall */
  MPI_Waitall(post(rank, 2, two, 1, r), r, MPI_STATUSES_IGNORE);
  /* 3: MPI_Waitany, until both are done */
  post(rank, 3, three, 1, r);
  for (int done = 0; done < 2; ++done) MPI_Waitany(2, r, &index, MPI_STATUS_IGNORE);
  /* 4: MPI_Waitsome */
  post(rank, 4, both, 2, r);
  for (int done = 0; done < 4; done += outcount) MPI_Waitsome(4, r, &outcount, indices, MPI_STATUSES_IGNORE);
  /* 5: MPI_Test on the receive, then MPI_Wait on the send */
  post(rank, 5, two, 1, r);
  for (flag = 0; !flag;) MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
  MPI_Wait(&r[1], MPI_STATUS_IGNORE);
  /* 6: MPI_Sendrecv */
  MPI_Sendrecv(out, 4 * 6, MPI_INT, mod(rank + 3), 6, in[0], 4 * 6, MPI_INT, mod(rank - 3), 6, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  /* 7: MPI_Testall */
  post(rank, 7, one, 1, r);
  for (flag = 0; !flag;) MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);
  /* 8: a blocking collective, then the wait for the messages */
  post(rank, 8, three, 1, r);
  int sum = 1;
  MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  /* 9: MPI_Testany, until both are done */
  post(rank, 9, one, 1, r);
  for (int done = 0; done < 2;) {
    MPI_Testany(2, r, &index, &flag, MPI_STATUS_IGNORE);
    done += flag && index != MPI_UNDEFINED;
  }
  /* 10: MPI_Testsome */
  post(rank, 10, both, 2, r);
  for (int done = 0; done < 4; done += outcount == MPI_UNDEFINED ? 0 : outcount)
    MPI_Testsome(4, r, &outcount, indices, MPI_STATUSES_IGNORE);
  /* 11: MPI_Wait on the send, which ends the step as a receive would */
  post(rank, 11, three, 1, r);
  MPI_Wait(&r[1], MPI_STATUS_IGNORE);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);

  MPI_Finalize();
  if (rank == 0 && sum == P) printf("OK\n");
  return 0;
}
