// The registry of the offline library: the core algorithms plus those of offline_algorithms.def.
#include <rankmap/mapping/offline.hpp>

namespace rankmap::mapping {

#define RANKMAP_ALGORITHM(function, name, summary) \
  Mapping function(const graph::CommGraph&, const topology::Allocation&, const MapOptions&);
#include "offline_algorithms.def"
#undef RANKMAP_ALGORITHM

std::span<const AlgorithmInfo> all_algorithms() {
  static const std::vector<AlgorithmInfo> algorithms = [] {
    std::vector<AlgorithmInfo> all(core_algorithms().begin(), core_algorithms().end());
#define RANKMAP_ALGORITHM(function, name, summary) all.push_back({name, &function, summary});
#include "offline_algorithms.def"
#undef RANKMAP_ALGORITHM
    return all;
  }();
  return algorithms;
}

}  // namespace rankmap::mapping
