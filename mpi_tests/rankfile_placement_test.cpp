// Round trip of `rankmap emit --format openmpi-rankfile`: each rank runs on the core and host its mapping gives.
#include <rankmap/mapping/mapping_file.hpp>

#include <gtest/gtest.h>
#include <hwloc.h>
#include <mpi.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

/// The host names of the test's --hosts file, one per node.
std::vector<std::string> read_hosts(const std::string& path) {
  std::vector<std::string> hosts;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') hosts.push_back(line);
  return hosts;
}

/// The expected place is computed here from the mapping alone, independently of rankmap's writer:
/// with the full allocation and `ppn` consecutive slots per node, slot s is core s % ppn of node s / ppn.
TEST(RankfilePlacement, EveryRankRunsOnTheCoreAndHostOfItsSlot) {
  const auto mapping = rankmap::mapping::read_mapping_file(env("RANKMAP_TEST_MAPPING"));
  const int ppn = std::atoi(env("RANKMAP_TEST_PPN").c_str());
  const std::vector<std::string> hosts = read_hosts(env("RANKMAP_TEST_HOSTS"));
  ASSERT_GE(ppn, 1);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ASSERT_EQ(size, mapping.tasks);
  const rankmap::SlotId slot = mapping.slot_of[rank];
  ASSERT_LT(static_cast<std::size_t>(slot / ppn), hosts.size());

  char name[MPI_MAX_PROCESSOR_NAME];
  int length = 0;
  MPI_Get_processor_name(name, &length);
  EXPECT_EQ(std::string(name, length), hosts[slot / ppn]) << "rank " << rank << " on slot " << slot;

  hwloc_topology_t topology;
  hwloc_topology_init(&topology);
  hwloc_topology_load(topology);
  hwloc_obj_t core = hwloc_get_obj_by_type(topology, HWLOC_OBJ_CORE, slot % ppn);
  ASSERT_NE(core, nullptr) << "this machine has no core " << slot % ppn;
  hwloc_bitmap_t bound = hwloc_bitmap_alloc();
  ASSERT_EQ(hwloc_get_cpubind(topology, bound, HWLOC_CPUBIND_PROCESS), 0);
  char* expected_text = nullptr;
  char* bound_text = nullptr;
  hwloc_bitmap_list_asprintf(&expected_text, core->cpuset);
  hwloc_bitmap_list_asprintf(&bound_text, bound);
  EXPECT_TRUE(hwloc_bitmap_isequal(bound, core->cpuset))
      << "rank " << rank << " on slot " << slot << " should be bound to core " << slot % ppn << " (PUs "
      << expected_text << ") but is bound to PUs " << bound_text;
  std::free(expected_text);
  std::free(bound_text);
  hwloc_bitmap_free(bound);
  hwloc_topology_destroy(topology);
}

}  // namespace
