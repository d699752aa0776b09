// Every algorithm, including the offline ones that need Scotch or a MILP solver (rankmap::offline).
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include <string_view>
#include <vector>

namespace rankmap::mapping {

/// The core algorithms followed by the offline ones, for the tool and the benchmarks.
std::span<const AlgorithmInfo> all_algorithms();

/// One `key=value` parameter of an offline algorithm, for help texts.
struct ParameterInfo {
  std::string_view name;
  std::string_view type;
  std::string_view default_value;
  std::string_view help;
};

/// The parameters of `rahtm:key=value,...`, in the order of rahtm's table (src/rahtm/params.cpp).
std::vector<ParameterInfo> rahtm_parameters();

}  // namespace rankmap::mapping
