// The test-only hooks of the fault-injection variants of the libraries (src/runtime/fault_injection.cpp),
// looked up at run time, so that the same test works preloaded and linked.
#pragma once

#include <dlfcn.h>

namespace rankmap::mpitest {

struct FaultHooks {
  int (*step_count)() = nullptr;
  const char* (*step_name)(int step) = nullptr;
  void (*arm)(int step, int world_rank) = nullptr;
  int (*fired)() = nullptr;
  int (*last_outcome)(int* applied, const char** note) = nullptr;

  /// True when every hook was found: the program runs with a fault-injection variant of rankmap.
  bool found() const { return step_count && step_name && arm && fired && last_outcome; }
};

template <typename Fn>
void look_up(Fn& fn, const char* name) {
  fn = reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
}

inline FaultHooks fault_hooks() {
  FaultHooks h;
  look_up(h.step_count, "rankmap_test_fault_step_count");
  look_up(h.step_name, "rankmap_test_fault_step_name");
  look_up(h.arm, "rankmap_test_fault_arm");
  look_up(h.fired, "rankmap_test_fault_fired");
  look_up(h.last_outcome, "rankmap_test_last_outcome");
  return h;
}

}  // namespace rankmap::mpitest
