// Test-only MPI_Init interposer (LD_PRELOAD): each rank checks it runs on the host and core its mapping gives it.
//
// Run 2 of the profile-place-rerun test starts the unmodified program from a launcher file; this
// library verifies, inside that same run, that the launcher did what the file says. It reads
// PLACEMENT_CHECK_MAPPING (a mapping file on the profile's allocation), PLACEMENT_CHECK_COORDS (that
// allocation) and PLACEMENT_CHECK_HOSTS (the host of each node). Slot s of node n is the node's
// (s - first slot)-th core.
#include <rankmap/launch/launcher_file.hpp>
#include <rankmap/mapping/mapping_file.hpp>
#include <rankmap/topology/coordinate_file.hpp>

#include <hwloc.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

/// The core this process is bound to exactly, or -1.
int bound_core() {
  hwloc_topology_t topology;
  hwloc_topology_init(&topology);
  hwloc_topology_load(topology);
  hwloc_bitmap_t bound = hwloc_bitmap_alloc();
  int found = -1;
  if (hwloc_get_cpubind(topology, bound, HWLOC_CPUBIND_PROCESS) == 0) {
    const int cores = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE);
    for (int c = 0; c < cores; ++c)
      if (hwloc_bitmap_isequal(bound, hwloc_get_obj_by_type(topology, HWLOC_OBJ_CORE, c)->cpuset)) found = c;
  }
  hwloc_bitmap_free(bound);
  hwloc_topology_destroy(topology);
  return found;
}

/// An empty string when this rank runs where the mapping says, else what is wrong.
std::string check(int rank) {
  const auto mapping = rankmap::mapping::read_mapping_file(env("PLACEMENT_CHECK_MAPPING"));
  const auto coords = rankmap::topology::read_coordinate_file(env("PLACEMENT_CHECK_COORDS"));
  const auto alloc = rankmap::topology::allocation_of(coords, 1);
  const auto hosts = rankmap::launch::read_host_list(env("PLACEMENT_CHECK_HOSTS"));
  const rankmap::SlotId slot = mapping.slot_of.at(static_cast<std::size_t>(rank));
  const int node = alloc.node_index_of_slot(slot);
  const int core = slot - alloc.slots_of_node(node)[0];
  char name[MPI_MAX_PROCESSOR_NAME];
  int length = 0;
  PMPI_Get_processor_name(name, &length);
  std::string problems;
  if (std::string(name, length) != hosts.at(static_cast<std::size_t>(node)))
    problems += " host " + std::string(name, length) + " instead of " + hosts[node];
  if (const int bound = bound_core(); bound != core)
    problems += " core " + std::to_string(bound) + " instead of " + std::to_string(core);
  return problems.empty() ? "" : "rank " + std::to_string(rank) + " (slot " + std::to_string(slot) + "):" + problems;
}

void verify() {
  int rank = 0, size = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  std::string problem;
  try {
    problem = check(rank);
  } catch (const std::exception& e) {
    problem = "rank " + std::to_string(rank) + ": " + e.what();
  }
  if (!problem.empty()) std::fprintf(stderr, "placement check: %s\n", problem.c_str());
  int ok = problem.empty(), all = 0;
  PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf(
        all ? "placement check: all %d ranks on the host and core of their slot\n" : "placement check: FAILED\n", size);
  std::fflush(stdout);
}

}  // namespace

extern "C" int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) verify();
  return rc;
}
