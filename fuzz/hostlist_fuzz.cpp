// libFuzzer target: Slurm hostlist expansion must reject bad expressions with InputError, never crash or grow without bound.
#include <rankmap/topology/hostlist.hpp>
#include <rankmap/types.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto names = rankmap::topology::expand_hostlist(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    if (names.empty() || names.size() > rankmap::topology::kMaxHostlistNames) __builtin_trap();
    for (const std::string& name : names)
      if (name.empty()) __builtin_trap();
  } catch (const rankmap::InputError&) {
  }
  return 0;
}
