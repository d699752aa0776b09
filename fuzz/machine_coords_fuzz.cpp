// libFuzzer target: the machine providers' inputs (RANKMAP_COORDS values, craype rules with xnames, Slurm's variables).
#include "craype_rule.hpp"
#include "providers.hpp"
#include "xname.hpp"

#include <rankmap/types.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

// The Slurm variables of the current input: its first line is the address, the rest the pattern.
std::string slurm_addr, slurm_pattern, slurm_host;
const char* fake_getenv(const char* name) {
  if (std::string_view(name) == "SLURM_TOPOLOGY_ADDR") return slurm_addr.c_str();
  if (std::string_view(name) == "SLURM_TOPOLOGY_ADDR_PATTERN") return slurm_pattern.c_str();
  return nullptr;
}

// This host is the node the address names, so that the parsing past the name check is reached.
std::string fake_host() { return slurm_host; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rankmap::coords;
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t newline = text.find('\n');
  const std::string_view first = text.substr(0, newline);
  const std::string_view rest = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
  try {
    switch (data[0] % 3) {
      case 0:
        (void)CoordsSpec::parse(text);
        break;
      case 1: {  // a rule, then an xname: the node must lie in the rule's dragonfly
        const CrayPeRule rule = CrayPeRule::parse(first);
        const rankmap::NodeId node = rule.node_of(parse_xname(rest, "fuzz"), "fuzz");
        if (node < 0 || node >= rule.network().num_nodes()) __builtin_trap();
        break;
      }
      default: {
        slurm_addr = std::string(first);
        slurm_pattern = std::string(rest);
        slurm_host = slurm_addr.substr(slurm_addr.rfind('.') + 1);
        const Location where = make_slurm_provider(&fake_getenv, &fake_host)->locate(0, 1);
        if (where.switch_path.empty() || where.node_name.empty()) __builtin_trap();
      }
    }
  } catch (const rankmap::InputError&) {
  }
  return 0;
}
