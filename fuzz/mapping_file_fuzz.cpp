// libFuzzer target: the mapping-file reader must refuse bad input cleanly, and what it accepts must round-trip.
#include <rankmap/mapping/mapping_file.hpp>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rankmap::mapping;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  MappingFile file;
  try {
    file = parse_mapping_file(in, "fuzz.map");
  } catch (const rankmap::InputError&) {
    return 0;
  }
  if (!is_permutation(file.slot_of) || file.slot_of.size() != static_cast<std::size_t>(file.tasks)) std::abort();
  std::ostringstream out;
  write_mapping_file(out, file);
  std::istringstream again(out.str());
  const MappingFile back = parse_mapping_file(again, "rewritten.map");
  if (back.slot_of != file.slot_of || back.graph_hash != file.graph_hash ||
      back.allocation_hash != file.allocation_hash || back.algorithm != file.algorithm ||
      back.objective != file.objective)
    std::abort();
  return 0;
}
