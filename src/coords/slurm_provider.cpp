// Slurm's topology/tree: the node's path of switches from SLURM_TOPOLOGY_ADDR and SLURM_TOPOLOGY_ADDR_PATTERN.
#include "hostname.hpp"
#include "hwloc_socket.hpp"
#include "providers.hpp"

#include <rankmap/types.hpp>

namespace rankmap::coords {

namespace {

// Far deeper than any real tree (FatTree allows 8 levels); bounds the work on a bad value.
constexpr std::size_t kMaxElements = 16;
constexpr std::size_t kMaxValue = 4096;

std::vector<std::string_view> split_dots(std::string_view text) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t dot = text.find('.');
    parts.push_back(text.substr(0, dot));
    if (dot == std::string_view::npos || parts.size() > kMaxElements) return parts;
    text.remove_prefix(dot + 1);
  }
}

class SlurmProvider final : public Provider {
 public:
  SlurmProvider(GetEnvFn get_env, HostNameFn host_name) : get_env_(get_env), host_name_(host_name) {}
  std::string name() const override { return "slurm"; }

  Location locate(int, int) const override {
    const char* addr = get_env_("SLURM_TOPOLOGY_ADDR");
    const char* pattern = get_env_("SLURM_TOPOLOGY_ADDR_PATTERN");
    if (addr == nullptr || pattern == nullptr)
      throw InputError("RANKMAP_COORDS=slurm: SLURM_TOPOLOGY_ADDR and SLURM_TOPOLOGY_ADDR_PATTERN must both be set "
                       "(Slurm sets them in every task under TopologyPlugin=topology/tree)");
    const std::string_view a(addr), p(pattern);
    if (a.size() > kMaxValue || p.size() > kMaxValue)
      throw InputError("RANKMAP_COORDS=slurm: SLURM_TOPOLOGY_ADDR or SLURM_TOPOLOGY_ADDR_PATTERN is longer than 4096 characters");
    const std::vector<std::string_view> names = split_dots(a), kinds = split_dots(p);
    if (kinds.size() > kMaxElements)
      throw InputError("SLURM_TOPOLOGY_ADDR_PATTERN='" + std::string(p) + "': more than 16 elements");
    for (std::size_t i = 0; i < kinds.size(); ++i)
      if (kinds[i] != (i + 1 == kinds.size() ? "node" : "switch"))
        throw InputError("SLURM_TOPOLOGY_ADDR_PATTERN='" + std::string(p) +
                         "': expected 'switch' elements separated by dots, then 'node'");
    if (kinds.size() == 1)
      throw InputError("SLURM_TOPOLOGY_ADDR_PATTERN='node': Slurm knows no switches (not topology/tree)");
    if (names.size() != kinds.size())
      throw InputError("SLURM_TOPOLOGY_ADDR='" + std::string(a) + "' has " + std::to_string(names.size()) +
                       " dot-separated names, but SLURM_TOPOLOGY_ADDR_PATTERN='" + std::string(p) + "' has " +
                       std::to_string(kinds.size()));
    Location where;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i].empty())
        throw InputError("SLURM_TOPOLOGY_ADDR='" + std::string(a) + "': element " + std::to_string(i + 1) + " is empty");
      if (i + 1 < names.size()) where.switch_path.emplace_back(names[i]);
    }
    where.node_name = std::string(names.back());
    // A launcher that forwards its whole environment (MPICH's hydra does by default) hands every
    // process the variables of the node mpiexec ran on; the node's own name tells them apart.
    const std::string host = host_name_();
    if (short_host_name(where.node_name) != short_host_name(host))
      throw InputError("SLURM_TOPOLOGY_ADDR='" + std::string(a) + "' names node '" + where.node_name +
                       "', but this host is '" + host + "' (the variable was inherited from another node)");
    // The same key as the hostname provider, so that nodes are the same whichever provider answers.
    where.node_key = node_key_of_host(host);
    where.socket = socket_of_this_process();
    return where;
  }

 private:
  GetEnvFn get_env_;
  HostNameFn host_name_;
};

}  // namespace

std::unique_ptr<Provider> make_slurm_provider(GetEnvFn get_env, HostNameFn host_name) {
  return std::make_unique<SlurmProvider>(get_env, host_name);
}

}  // namespace rankmap::coords
