// Failure keys, notes, and the guard's settling of failures across processes.
#include "step_guard.hpp"

#include "comm_tools.hpp"
#include "report.hpp"

#include <climits>

namespace rankmap::runtime {

namespace {

constexpr const char* kStepNames[] = {
    "prepare",        "placement",  "pack_edges",      "graph_counts",    "graph_size",
    "graph_buffer",   "graph_gather", "decide",        "verdict_broadcast", "verdict",
    "renumber_group", "pack_lists", "renumbered_comm", "exchange_lists",  "create_topology",
    "report"};
static_assert(std::size(kStepNames) == static_cast<std::size_t>(Step::count));

constexpr long long kNoFailure = LLONG_MAX;

}  // namespace

const char* step_name(Step step) noexcept {
  const auto i = static_cast<std::size_t>(step);
  return i < std::size(kStepNames) ? kStepNames[i] : "unknown";
}

long long encode_failure(const std::optional<StepFailure>& failure) noexcept {
  if (!failure) return kNoFailure;
  return (static_cast<long long>(failure->step) << 32) | static_cast<unsigned>(failure->rank);
}

std::optional<StepFailure> decode_failure(long long key) noexcept {
  if (key == kNoFailure) return std::nullopt;
  return StepFailure{static_cast<Step>(key >> 32), static_cast<int>(key & 0xffffffffLL)};
}

std::string describe(StepFailure failure) {
  if (failure.step == Step::graph_size) return "the graph has more than 2^31 entries";
  return "rank " + std::to_string(failure.rank) + " failed at step " + step_name(failure.step);
}

void StepGuard::mpi(Step step, int rc) noexcept {
  if (failure_) return;
  always(step, [] {});
  if (failure_ || rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = "MPI error";
  int length = 0;
  PMPI_Error_string(rc, text, &length);
  failed(step, text);
}

void StepGuard::fail(Step step, std::string note) noexcept {
  if (failure_) return;
  failure_ = StepFailure{step, rank_};
  note_ = std::move(note);
}

std::optional<StepFailure> StepGuard::settle() noexcept {
  long long key = encode_failure(failure_);
  MPI_Request request;
  int rc = PMPI_Iallreduce(MPI_IN_PLACE, &key, 1, MPI_LONG_LONG, MPI_MIN, comm_, &request);
  if (rc == MPI_SUCCESS) rc = wait_politely(&request);
  if (rc != MPI_SUCCESS) key = encode_failure(StepFailure{Step::count, rank_});
  return decode_failure(key);
}

std::string StepGuard::note(StepFailure failure) const noexcept {
  try {
    if (failure_ && failure_->step == failure.step && !note_.empty()) return note_;
    return describe(failure);
  } catch (...) {
    return {};
  }
}

void StepGuard::failed(Step step, const char* what) noexcept {
  if (failure_) return;
  failure_ = StepFailure{step, rank_};
  log_step_failure(rank_, step, what);
}

void log_step_failure(int rank, Step step, const char* what) noexcept {
  try {
    const std::string text = "rank " + std::to_string(rank) + ": " + step_name(step) + ": " + what;
    log_once(text, text);
  } catch (...) {
  }
}

}  // namespace rankmap::runtime
