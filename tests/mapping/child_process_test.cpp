// Tests of run_in_child: answers larger than a pipe, errors and deaths of the child, a child killed
// at the deadline, and no zombie or descriptor left behind. Nothing here measures time.
#include "offline/child_process.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <iterator>
#include <stdexcept>

namespace rankmap::mapping::detail {
namespace {

/// Open descriptors of this process.
long open_descriptors() {
  const std::filesystem::directory_iterator fds("/proc/self/fd");
  return std::distance(fds, std::filesystem::directory_iterator{});
}

/// True when this process has no child, running or zombie.
bool no_children() { return ::waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD; }

class RunInChild : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(no_children());
    descriptors_ = open_descriptors();
  }
  void TearDown() override {
    EXPECT_TRUE(no_children()) << "a child was left running or unreaped";
    EXPECT_EQ(open_descriptors(), descriptors_) << "a pipe end was left open";
  }
  const Deadline generous_{600000};

 private:
  long descriptors_ = 0;
};

TEST_F(RunInChild, ReturnsAnAnswerLargerThanThePipeWhole) {
  // 4 MiB of slots, far beyond a pipe's 64 KiB: the child's writes are short and the parent reads
  // while it writes.
  const Mapping big = identity_mapping(1 << 20);
  const std::optional<Mapping> got = run_in_child(generous_, [&] { return big; });
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, big);
  EXPECT_EQ(run_in_child(generous_, [] { return Mapping{}; }).value(), Mapping{});
}

TEST_F(RunInChild, AChildStillRunningAtTheDeadlineIsKilled) {
  const Deadline soon(50);
  EXPECT_FALSE(run_in_child(soon, [] {
                 for (;;) ::pause();
                 return Mapping{};
               }).has_value());
  const Deadline passed(0);
  EXPECT_FALSE(run_in_child(passed, [] { return Mapping{1, 0}; }).has_value());
}

TEST_F(RunInChild, TheChildsExceptionsReachTheCaller) {
  try {
    run_in_child(generous_, []() -> Mapping { throw InputError("scotch: SCOTCH_graphBuild failed"); });
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "scotch: SCOTCH_graphBuild failed");
  }
  try {
    run_in_child(generous_, []() -> Mapping { throw std::logic_error("broken"); });
    ADD_FAILURE() << "no runtime_error";
  } catch (const InputError&) {
    ADD_FAILURE() << "a logic_error is no input error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "broken");
  }
}

TEST_F(RunInChild, AChildThatDiesIsAnError) {
  // SIGKILL stands for a crash inside the library (and makes no core file).
  try {
    run_in_child(generous_, []() -> Mapping {
      ::kill(::getpid(), SIGKILL);
      return {};
    });
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the child process running the mapper was killed by signal 9 (Killed)");
  }
}

}  // namespace
}  // namespace rankmap::mapping::detail
