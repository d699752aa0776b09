// Prints the nodes a busy scheduler gives a job on any network (topology::fragmented_nodes, the
// generator bench/network_quality uses), one node index per line in the order it hands them out.
// bench/smpi/network_platform.py writes the fragmented SimGrid platforms from them.
//
// Usage: smpi_fragmented_nodes SPEC COUNT SEED
#include <rankmap/topology/allocation_generators.hpp>
#include <rankmap/topology/network.hpp>

#include <cstdio>
#include <exception>
#include <string>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: smpi_fragmented_nodes SPEC COUNT SEED\n");
    return 2;
  }
  try {
    const auto network = rankmap::topology::Network::parse(argv[1]);
    const auto nodes = rankmap::topology::fragmented_nodes(network, std::stoi(argv[2]), std::stoull(argv[3]));
    for (const auto node : nodes) std::printf("%lld\n", static_cast<long long>(node));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "smpi_fragmented_nodes: %s\n", e.what());
    return 1;
  }
  return 0;
}
