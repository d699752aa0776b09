// libFuzzer target: the Matrix Market reader must refuse bad input cleanly, and what it accepts must round-trip.
#include <rankmap/graph/matrix_market.hpp>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  rankmap::graph::CommGraph graph;
  try {
    graph = rankmap::graph::parse_matrix_market(in, "fuzz.mtx");
  } catch (const rankmap::InputError&) {
    return 0;
  }
  std::ostringstream out;
  rankmap::graph::write_matrix_market(out, graph);
  std::istringstream again(out.str());
  if (rankmap::graph::parse_matrix_market(again, "rewritten.mtx").canonical_hash() != graph.canonical_hash())
    std::abort();
  return 0;
}
