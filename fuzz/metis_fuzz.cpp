// libFuzzer target: the METIS reader must refuse bad input cleanly and only ever return symmetric graphs.
#include <rankmap/graph/metis_format.hpp>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  rankmap::graph::CommGraph graph;
  try {
    graph = rankmap::graph::parse_metis(in, "fuzz.graph");
  } catch (const rankmap::InputError&) {
    return 0;
  }
  if (graph.transposed().canonical_hash() != graph.canonical_hash()) std::abort();
  return 0;
}
