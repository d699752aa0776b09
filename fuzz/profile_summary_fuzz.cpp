// libFuzzer target: the profile summary's phase_rule reader must refuse bad input cleanly, and what
// it accepts must read back the same from the word it names.
#include <rankmap/graph/profile_summary.hpp>
#include <rankmap/types.hpp>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rankmap::graph;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  PhaseOrigin origin;
  try {
    origin = parse_phase_origin(in, "fuzz.summary");
  } catch (const rankmap::InputError&) {
    return 0;
  }
  if (origin == PhaseOrigin::unstated) return 0;
  std::istringstream again("phase_rule " + std::string(to_string(origin)) + "\n");
  if (parse_phase_origin(again, "rewritten.summary") != origin) std::abort();
  return 0;
}
