// The offline mappers (scotch, and chains through grasp) return permutations on the awkward instances.
#include "instances.hpp"

#include <rankmap/mapping/offline.hpp>

#include <gtest/gtest.h>

#include <string>

namespace rankmap::mapping {
namespace {

class OfflineValidity : public ::testing::TestWithParam<const char*> {};

TEST_P(OfflineValidity, ReturnsAPermutationOnEveryInstance) {
  for (const testing::Instance& instance : testing::awkward_instances()) {
    MapOptions options;
    options.time_budget_ms = 20;
    const Mapping m = run_chain(GetParam(), all_algorithms(), instance.graph, instance.alloc, options);
    EXPECT_EQ(static_cast<TaskId>(m.size()), instance.graph.num_tasks()) << instance.name;
    EXPECT_TRUE(is_permutation(m)) << instance.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Offline, OfflineValidity,
                         ::testing::Values("scotch", "scotch:quality", "scotch:speed", "split+grasp:1", "hilbert+grasp:2"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace rankmap::mapping
