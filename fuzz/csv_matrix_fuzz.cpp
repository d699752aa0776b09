// libFuzzer target: the dense CSV matrix reader must refuse bad input cleanly, and what it accepts must be square.
#include <rankmap/graph/csv_matrix.hpp>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  rankmap::graph::CommGraph graph;
  try {
    graph = rankmap::graph::parse_csv_matrix(in, "fuzz.csv");
  } catch (const rankmap::InputError&) {
    return 0;
  }
  // At most one edge per cell, so a graph of n tasks has at most n*n edges.
  const std::int64_t n = graph.num_tasks();
  if (n < 1 || graph.num_edges() > n * n) std::abort();
  return 0;
}
