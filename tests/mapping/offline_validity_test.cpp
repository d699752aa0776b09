// Every offline mapper (scotch, rahtm, and chains through grasp) returns a permutation on the awkward instances.
#include "instances.hpp"

#include <rankmap/mapping/offline.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rankmap::mapping {
namespace {

class OfflineValidity : public ::testing::TestWithParam<std::string> {};

TEST_P(OfflineValidity, ReturnsAPermutationOnEveryInstance) {
  for (const testing::Instance& instance : testing::awkward_instances()) {
    MapOptions options;
    // 20 ms keeps rahtm and grasp short; Scotch would be stopped at that deadline on a loaded
    // machine, leaving the fallback to be checked instead of Scotch, so it gets all the time it takes.
    options.time_budget_ms = GetParam().starts_with("scotch") ? 600000 : 20;
    const Mapping m = run_chain(GetParam(), all_algorithms(), instance.graph, instance.alloc, options);
    EXPECT_EQ(static_cast<TaskId>(m.size()), instance.graph.num_tasks()) << instance.name;
    EXPECT_TRUE(is_permutation(m)) << instance.name;
  }
}

/// Every offline algorithm alone (validity_test.cpp covers the core ones), with parameters, and in
/// chains. rahtm runs without its CBC MILPs, which took minutes on these instances; tests/rahtm
/// covers the MILPs.
std::vector<std::string> chains() {
  std::vector<std::string> names;
  for (const AlgorithmInfo& a : all_algorithms())
    if (!find_algorithm(core_algorithms(), a.name))
      names.push_back(a.name == "rahtm" ? "rahtm:milp=off" : std::string(a.name));
  for (const char* chain : {"scotch:quality", "scotch:speed", "split+grasp:1", "hilbert+grasp:2"}) names.emplace_back(chain);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Offline, OfflineValidity, ::testing::ValuesIn(chains()),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace rankmap::mapping
