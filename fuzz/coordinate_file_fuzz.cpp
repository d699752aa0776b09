// libFuzzer target: the coordinate file parser must reject bad input with InputError, never crash or hang.
#include <rankmap/topology/coordinate_file.hpp>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rankmap::topology;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const CoordinateFile file = parse_coordinate_file(in, "fuzz");
    // A file that parsed must write out and parse back to the same nodes.
    std::stringstream again;
    write_coordinate_file(again, file);
    const CoordinateFile back = parse_coordinate_file(again, "fuzz-roundtrip");
    if (back.nodes.size() != file.nodes.size() || !(back.grid == file.grid)) __builtin_trap();
    long long slots = 0;
    for (const CoordinateEntry& e : file.nodes) slots += e.slots > 0 ? e.slots : 1;
    if (!file.nodes.empty() && slots <= (1 << 20)) (void)allocation_of(file, 1);
  } catch (const rankmap::InputError&) {
  }
  return 0;
}
