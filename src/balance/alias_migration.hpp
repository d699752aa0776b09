// One collective balance step: gather the counts, compute the flow, agree, then move the tasks.
#pragma once

#include <mpi.h>

#include <vector>

namespace rankmap::balance {

/// One outgoing message: the last `n` of the tasks still held go to rank `dest`.
struct Outgoing {
  int dest;
  long long n;
};

/// What this process does in one step; every process derives its own from the same flow.
struct MigrationPlan {
  long long count = 0;  ///< tasks held before the step
  std::vector<Outgoing> sends;
  long long sent = 0;
  int source = -1;  ///< the rank that sends to this one, or -1
  long long received = 0;
  long long new_count() const { return count - sent + received; }
};

/// How the tasks of one process are stored; the step calls these in order
/// prepare -> (agreement) -> post -> (wait) -> finish, or prepare -> (agreement fails) -> undo.
class TaskTransport {
 public:
  virtual ~TaskTransport() = default;
  /// Local preparation that may fail: buffers, packing. Returns a RANKMAP status.
  virtual int prepare(const MigrationPlan& plan) = 0;
  /// Restores the state before prepare() when some process failed.
  virtual void undo() = 0;
  /// Posts one nonblocking send per outgoing message and the receive; returns an MPI error code.
  virtual int post(const MigrationPlan& plan, MPI_Comm comm, std::vector<MPI_Request>& requests) = 0;
  /// Completes the step once all requests are done. Returns a RANKMAP status.
  virtual int finish(const MigrationPlan& plan) = 0;
};

/// Runs one balance step collectively over `comm`. `args_ok` says whether this process's
/// arguments are valid; a false anywhere makes every process return RANKMAP_ERR_ARG. Every
/// error except RANKMAP_ERR_MPI and a failing finish() is the same on every process and
/// leaves all tasks where they were. On success *new_count is the new number of tasks.
int run_balance_step(long long count, long long capacity, bool args_ok, MPI_Comm comm, TaskTransport& transport,
                     long long* new_count);

}  // namespace rankmap::balance
