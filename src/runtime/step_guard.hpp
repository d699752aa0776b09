// The steps of one reorder, and the guard that keeps every process on the same collective path
// when a step fails on some processes only.
#pragma once

#include <mpi.h>

#include <exception>
#include <optional>
#include <string>

namespace rankmap::runtime {

struct ReorderOutcome;

/// The steps of the reorder protocol at which one process can fail alone (an exception, or an
/// error returned by an MPI call), in protocol order (docs/runtime.md, "The protocol of one
/// reorder"). The fault-injection build of the tests fails each of them in turn.
enum class Step : int {
  prepare,            ///< checking the arguments, allocating the buffers of the collectives
  placement,          ///< the communicator's placement: translation, or gathered records
  pack_edges,         ///< this process's edges for the gather to rank 0
  graph_counts,       ///< the MPI_Gather of every process's edge count
  graph_size,         ///< rank 0: the edges do not fit an int count
  graph_buffer,       ///< rank 0: memory for every process's edges
  graph_gather,       ///< the MPI_Gatherv of the edges
  decide,             ///< rank 0: the mapping and its evaluation
  verdict_broadcast,  ///< the broadcast of the verdict and the permutation
  verdict,            ///< reading the verdict
  renumber_group,     ///< the old group in the new order
  pack_lists,         ///< adjacent call: this process's lists for the process that plays its vertex
  renumbered_comm,    ///< MPI_Comm_create of the renumbered communicator
  exchange_lists,     ///< adjacent call: sending and receiving the lists
  create_topology,    ///< the MPI topology call on the renumbered communicator
  report,             ///< rank 0: the report line (its failure changes nothing)
  count
};

/// The step's name, as in notes and in the tests ("pack_edges").
const char* step_name(Step step) noexcept;

/// A failure as every process learns it: the earliest step that failed, and the lowest rank that failed there.
struct StepFailure {
  Step step = Step::prepare;
  int rank = 0;
};

/// Encoded so that MPI_MIN picks the earliest step, then the lowest rank; no failure is the largest value.
long long encode_failure(const std::optional<StepFailure>& failure) noexcept;
std::optional<StepFailure> decode_failure(long long key) noexcept;

/// The note every process gives for a failure: "rank 3 failed at step pack_edges".
std::string describe(StepFailure failure);

/// Prints, on this process only, what made it fail at `step` (the others learn only the step).
void log_step_failure(int rank, Step step, const char* what) noexcept;

/// The test build's hooks (fault_injection.cpp); no-ops in the libraries rankmap installs
/// (no_fault_injection.cpp). fault_point throws on the process and at the step a test armed;
/// observe_outcome lets a test read what the last reorder of the calling thread did.
void fault_point(Step step);
void observe_outcome(const ReorderOutcome& outcome) noexcept;

/// Tracks this process's first failure through the steps of one reorder, and makes it known to
/// every process of `comm` at the collectives the protocol chooses (settle). A process that has
/// failed skips the local work of later steps but still makes every collective of the protocol,
/// so that no process waits in a collective another one skipped.
class StepGuard {
 public:
  StepGuard(MPI_Comm comm, int rank) noexcept : comm_(comm), rank_(rank) {}

  /// Runs `work` unless this process already failed; an exception marks it failed at `step`.
  template <typename Work>
  void local(Step step, Work&& work) noexcept {
    if (failure_) return;
    always(step, work);
  }

  /// Runs `work` even after a failure (work that contains a collective every process must make);
  /// an exception marks this process failed at `step` unless it already failed.
  template <typename Work>
  void always(Step step, Work&& work) noexcept {
    try {
      if (!failure_) fault_point(step);
      work();
    } catch (const std::exception& e) {
      failed(step, e.what());
    } catch (...) {
      failed(step, "unknown exception");
    }
  }

  /// The return code of an MPI call made at `step` whatever happened before (a collective).
  void mpi(Step step, int rc) noexcept;

  /// Makes the MPI call `call` (returning a code) unless this process already failed.
  template <typename Call>
  void call(Step step, Call&& call) noexcept {
    if (!failure_) mpi(step, call());
  }

  /// Marks this process failed at `step` with the note every process shares when this failure is
  /// the one settled (a failure found identically on every process, such as "no placement: ...").
  void fail(Step step, std::string note) noexcept;

  bool ok() const noexcept { return !failure_; }

  /// One MPI_Allreduce on comm: the first failure of any process so far, the same on every process,
  /// or nullopt. Every process of comm must call it at the same point.
  std::optional<StepFailure> settle() noexcept;

  /// The note for a settled failure: this process's own note when it failed at the same step
  /// with one, else describe(failure). Empty only when memory ran out.
  std::string note(StepFailure failure) const noexcept;

 private:
  void failed(Step step, const char* what) noexcept;

  MPI_Comm comm_;
  int rank_;
  std::optional<StepFailure> failure_;
  std::string note_;
};

}  // namespace rankmap::runtime
