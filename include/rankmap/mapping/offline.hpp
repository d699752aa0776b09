// Every algorithm, including the offline ones that need Scotch or a MILP solver (rankmap::offline).
#pragma once

#include <rankmap/mapping/mapping.hpp>

namespace rankmap::mapping {

/// The core algorithms followed by the offline ones, for the tool and the benchmarks.
std::span<const AlgorithmInfo> all_algorithms();

}  // namespace rankmap::mapping
