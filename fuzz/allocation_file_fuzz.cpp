// libFuzzer target: the allocation file reader (network files, and coordinate files through it) must
// reject bad input with InputError, never crash or hang, and what it reads must write out and read back.
#include <rankmap/topology/allocation_file.hpp>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rankmap::topology;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const AllocationFile file = parse_allocation_file(in, "fuzz");
    std::stringstream again;
    write_allocation_file(again, file);
    const AllocationFile back = parse_allocation_file(again, "fuzz-roundtrip");
    if (!(back.network == file.network) || back.nodes.size() != file.nodes.size()) __builtin_trap();
    for (std::size_t i = 0; i < file.nodes.size(); ++i)
      if (back.nodes[i].node != file.nodes[i].node || back.nodes[i].slots != file.nodes[i].slots) __builtin_trap();
    long long slots = 0;
    for (const NodeEntry& e : file.nodes) slots += e.slots > 0 ? e.slots : 1;
    if (!file.nodes.empty() && slots <= (1 << 20)) {
      const Allocation alloc = allocation_of(file, 1);
      if (alloc.num_slots() != slots) __builtin_trap();
    }
  } catch (const rankmap::InputError&) {
  }
  return 0;
}
