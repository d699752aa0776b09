// The fault-injection hooks as the installed libraries have them: they do nothing. The test build
// links fault_injection.cpp ahead of this archive member, which the linker then leaves out.
#include "step_guard.hpp"

namespace rankmap::runtime {

void fault_point(Step) {}

void observe_outcome(const ReorderOutcome&) noexcept {}

}  // namespace rankmap::runtime
