// Every core algorithm, and the runtime's default chain, returns a permutation on every kind of instance.
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/node_flows.hpp>

#include "instances.hpp"

#include <gtest/gtest.h>

#include <cctype>

namespace rankmap::mapping {
namespace {

using topology::Allocation;
using topology::Grid;

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const AlgorithmInfo& a : core_algorithms()) names.emplace_back(a.name);
  for (const char* chain : {"mahd+refine", "mahd:direct+refine", "emahd:direct,4", "gge+refine"})
    names.emplace_back(chain);
  return names;
}

class EveryAlgorithm : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryAlgorithm, ReturnsAPermutationOnEveryInstance) {
  for (const testing::Instance& instance : testing::awkward_instances()) {
    SCOPED_TRACE(instance.name);
    MapOptions options;
    options.time_budget_ms = 20;
    const Mapping m = run_chain(GetParam(), core_algorithms(), instance.graph, instance.alloc, options);
    ASSERT_EQ(static_cast<TaskId>(m.size()), instance.graph.num_tasks());
    EXPECT_TRUE(is_permutation(m));
    EXPECT_NO_THROW(metrics::check_mapping(instance.graph, instance.alloc, m));
  }
}

TEST_P(EveryAlgorithm, HopBytesObjectiveAndDorRoutingAlsoGivePermutations) {
  for (const testing::Instance& instance : testing::awkward_instances()) {
    SCOPED_TRACE(instance.name);
    MapOptions options;
    options.time_budget_ms = 10;
    options.objective = Objective::hop_bytes;
    options.routing = topology::RoutingSpec::parse("dor");
    options.threads = 2;
    const Mapping m = run_chain(GetParam(), core_algorithms(), instance.graph, instance.alloc, options);
    EXPECT_TRUE(is_permutation(m));
  }
}

INSTANTIATE_TEST_SUITE_P(Mapping, EveryAlgorithm, ::testing::ValuesIn(algorithm_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(Parameters, UnknownParametersAreRefusedByName) {
  const auto g = testing::path_graph(4);
  const Allocation a = Allocation::full(Grid::parse("mesh:4"), 1);
  for (const char* chain : {"mahd:fast", "mahd:3", "emahd:0", "refine:x", "anneal:0", "gge:1", "rcm:1", "hilbert:2", "dimorder-best:-2",
                            "dimorder:AB", "bisect:1"}) {
    SCOPED_TRACE(chain);
    EXPECT_THROW(run_chain(chain, core_algorithms(), g, a, {}), InputError);
  }
}

}  // namespace
}  // namespace rankmap::mapping
