#include "mapping_threads.hpp"

#include <gtest/gtest.h>

namespace rankmap::runtime {
namespace {

TEST(MappingThreads, AutomaticTakesTheCoresOfWaitingProcessesOnly) {
  EXPECT_EQ(automatic_threads(64, 4), 4) << "four processes wait on rank 0's node; the other cores may be busy";
  EXPECT_EQ(automatic_threads(1, 32), 1) << "rank 0 bound to one core";
  EXPECT_EQ(automatic_threads(8, 8), 8);
  EXPECT_EQ(automatic_threads(0, 0), 1);
}

TEST(MappingThreads, ACountedSettingIsTakenAsIs) {
  const topology::Allocation alloc(topology::Grid::parse("torus:2x2"), {0, 0, 1, 1});
  EXPECT_EQ(mapping_threads(3, alloc), 3);
  const int automatic = mapping_threads(0, alloc);
  EXPECT_GE(automatic, 1);
  EXPECT_LE(automatic, 2) << "two processes of the communicator share rank 0's node";
}

}  // namespace
}  // namespace rankmap::runtime
