// What the benchmarks measure of a mapping (hop-bytes, MCL under several routings), and their clock.
#pragma once

#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include <chrono>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace rankmap::bench {

struct Figures {
  double hop_bytes = 0;
  std::vector<double> mcl;  ///< one per routing asked for, in that order
};

inline Figures measure(const graph::CommGraph& graph, const topology::Allocation& alloc, const mapping::Mapping& m,
                       std::initializer_list<std::string_view> routings) {
  Figures f{metrics::hop_bytes(graph, alloc, m), {}};
  for (std::string_view routing : routings)
    f.mcl.push_back(
        metrics::max_channel_load(graph, alloc, m, *topology::make_routing_model(alloc.network(), routing)));
  return f;
}

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace rankmap::bench
