// Socket of the calling process from hwloc, skipped cheaply when the process is not bound.
#include "hwloc_socket.hpp"

#include <sched.h>
#include <unistd.h>

namespace rankmap::coords {

int package_of_cpuset(hwloc_topology_t topology, hwloc_const_cpuset_t cpuset) {
  if (hwloc_bitmap_iszero(cpuset)) return -1;
  hwloc_obj_t package = hwloc_get_next_obj_covering_cpuset_by_type(topology, cpuset, HWLOC_OBJ_PACKAGE, nullptr);
  if (!package) return -1;
  // Covering means intersecting; the process is on one socket only if the package includes the whole set.
  if (!hwloc_bitmap_isincluded(cpuset, package->cpuset)) return -1;
  return static_cast<int>(package->logical_index);
}

namespace {

bool bound_to_a_subset_of_cpus() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return false;
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 && CPU_COUNT(&mask) < online;
}

}  // namespace

int socket_of_this_process() {
  if (!bound_to_a_subset_of_cpus()) return -1;
  hwloc_topology_t topology;
  if (hwloc_topology_init(&topology) != 0) return -1;
  int socket = -1;
  // Only packages and PUs are needed; dropping caches, NUMA nodes and I/O makes loading fast.
  hwloc_topology_set_all_types_filter(topology, HWLOC_TYPE_FILTER_KEEP_NONE);
  hwloc_topology_set_type_filter(topology, HWLOC_OBJ_PACKAGE, HWLOC_TYPE_FILTER_KEEP_ALL);
  hwloc_topology_set_type_filter(topology, HWLOC_OBJ_PU, HWLOC_TYPE_FILTER_KEEP_ALL);
  if (hwloc_topology_load(topology) == 0) {
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set && hwloc_get_cpubind(topology, set, HWLOC_CPUBIND_PROCESS) == 0) socket = package_of_cpuset(topology, set);
    hwloc_bitmap_free(set);
  }
  hwloc_topology_destroy(topology);
  return socket;
}

}  // namespace rankmap::coords
