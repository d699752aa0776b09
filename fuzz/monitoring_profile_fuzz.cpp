// libFuzzer target: the pml monitoring profile reader refuses bad input cleanly and accepts only valid edges.
#include <rankmap/graph/monitoring_profile.hpp>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The first byte picks the file's rank and the set's size, so both checks are exercised.
  if (size < 1) return 0;
  const rankmap::TaskId tasks = 1 + data[0] % 16;
  const rankmap::TaskId rank = (data[0] / 16) % tasks;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  std::vector<rankmap::graph::Edge> edges;
  try {
    edges = rankmap::graph::parse_monitoring_profile(in, "fuzz.0.prof", rank, tasks);
  } catch (const rankmap::InputError&) {
    return 0;
  }
  for (const auto& e : edges)
    if (e.src < 0 || e.src >= tasks || e.dst < 0 || e.dst >= tasks || !(e.weight > 0)) std::abort();
  // Whatever the reader accepts, the graph builder must accept too.
  rankmap::graph::CommGraph::from_edges(tasks, std::move(edges));
  return 0;
}
