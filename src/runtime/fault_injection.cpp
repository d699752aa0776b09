// Test build only: fails a chosen step of the reorder protocol on a chosen process, and keeps what
// each thread's last reorder did, for the MPI tests of the failure paths. Linked into the test
// variants of the preload and C API libraries (mpi_tests/CMakeLists.txt), never into an installed one.
#include "engine.hpp"
#include "step_guard.hpp"

#include <atomic>
#include <stdexcept>

#define RANKMAP_TEST_API extern "C" __attribute__((visibility("default")))

namespace rankmap::runtime {

namespace {

std::atomic<int> armed_step{-1};
std::atomic<int> armed_rank{-1};
std::atomic<int> fired{0};

/// Kept whole in the library (used): mpi_tests/check_no_fault_injection.sh looks for this text to
/// tell a test variant from an installed library, and at -O3 GCC built the message from immediates.
[[gnu::used]] constexpr char kInjectedFault[] = "injected fault at step ";

struct Observed {
  bool seen = false;
  ReorderOutcome outcome;
};
thread_local Observed last;

int world_rank() {
  int rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

}  // namespace

void fault_point(Step step) {
  int expected = static_cast<int>(step);
  if (armed_step.load() != expected || world_rank() != armed_rank.load()) return;
  // Fires once per arming, so that a step reached twice fails only the first time.
  if (!armed_step.compare_exchange_strong(expected, -1)) return;
  fired.fetch_add(1);
  throw std::runtime_error(kInjectedFault + std::string(step_name(step)));
}

void observe_outcome(const ReorderOutcome& outcome) noexcept {
  try {
    last.outcome = outcome;
    last.seen = true;
  } catch (...) {
    last.seen = false;
  }
}

}  // namespace rankmap::runtime

using rankmap::runtime::Step;

/// How many steps there are; steps are 0 .. count-1.
RANKMAP_TEST_API int rankmap_test_fault_step_count(void) { return static_cast<int>(Step::count); }

RANKMAP_TEST_API const char* rankmap_test_fault_step_name(int step) {
  return rankmap::runtime::step_name(static_cast<Step>(step));
}

/// The next time the process of world rank `world_rank` reaches `step`, that step throws; -1 disarms.
/// Resets the count of rankmap_test_fault_fired.
RANKMAP_TEST_API void rankmap_test_fault_arm(int step, int world_rank) {
  rankmap::runtime::fired.store(0);
  rankmap::runtime::armed_rank.store(world_rank);
  rankmap::runtime::armed_step.store(step);
}

/// How many faults this process threw since it was last armed.
RANKMAP_TEST_API int rankmap_test_fault_fired(void) { return rankmap::runtime::fired.load(); }

/// What the calling thread's last reorder did: 1 with `applied` and `note` (valid until that thread's
/// next reorder), 0 when the thread made none.
RANKMAP_TEST_API int rankmap_test_last_outcome(int* applied, const char** note) {
  if (!rankmap::runtime::last.seen) return 0;
  *applied = rankmap::runtime::last.outcome.applied ? 1 : 0;
  *note = rankmap::runtime::last.outcome.note.c_str();
  return 1;
}
