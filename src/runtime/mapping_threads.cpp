// Threads for rank 0's mapping: the cores that the communicator's waiting processes leave idle.
#include "mapping_threads.hpp"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace rankmap::runtime {

namespace {

/// The cores this process may run on: its affinity mask, which a launcher that binds each process
/// to one core narrows to 1; the machine's cores when the mask cannot be read.
int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

int processes_on_node_of_slot_0(const topology::Allocation& alloc) {
  if (alloc.num_slots() == 0) return 1;
  const NodeId root_node = alloc.node_of_slot(0);
  const auto& nodes = alloc.nodes_of_slots();
  return static_cast<int>(std::count(nodes.begin(), nodes.end(), root_node));
}

}  // namespace

int automatic_threads(int usable, int processes_on_root_node) {
  return std::max(1, std::min(usable, processes_on_root_node));
}

int mapping_threads(int configured, const topology::Allocation& alloc) {
  if (configured > 0) return configured;
  return automatic_threads(usable_cpus(), processes_on_node_of_slot_0(alloc));
}

}  // namespace rankmap::runtime
