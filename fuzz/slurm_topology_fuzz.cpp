// libFuzzer target: topology.conf / `scontrol show topology` reading and the tree built from it.
#include <rankmap/topology/slurm_topology.hpp>
#include <rankmap/types.hpp>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <unordered_set>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rankmap::topology;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const SlurmTree tree = slurm_tree(parse_slurm_topology(in, "fuzz"), "fuzz");
    // Every named node sits on its own node of the fat-tree.
    if (tree.hosts.size() != tree.nodes.size()) __builtin_trap();
    std::unordered_set<rankmap::NodeId> seen;
    for (const rankmap::NodeId n : tree.nodes)
      if (n < 0 || n >= tree.network.num_nodes() || !seen.insert(n).second) __builtin_trap();
  } catch (const rankmap::InputError&) {
  }
  return 0;
}
