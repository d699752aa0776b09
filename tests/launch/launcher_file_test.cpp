// Launcher files (Open MPI rankfile, host files, BG/Q map file, SimGrid names) against hand-written text.
#include <rankmap/hash.hpp>
#include <rankmap/launch/launcher_file.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace rankmap::launch {
namespace {

using ::testing::HasSubstr;
using topology::Allocation;
using topology::Grid;

std::string emit(LauncherFormat format, const Allocation& alloc, const std::vector<SlotId>& slot_of,
                 const std::vector<std::string>& hosts) {
  std::ostringstream out;
  write_launcher_file(out, format, alloc, slot_of, hosts);
  return out.str();
}

/// torus:2x2 with ppn 2: slot s on node s/2, as the node's slot s%2; hosts a b c d by node.
const Allocation kSquare = Allocation::full(Grid::parse("torus:2x2"), 2);
const std::vector<SlotId> kShuffle = {3, 0, 7, 4, 1, 6, 2, 5};
const std::vector<std::string> kHosts = {"a", "b", "c", "d"};

TEST(LauncherFile, OpenMpiRankfileGivesHostAndSlotWithinTheNode) {
  // Task 0 is on slot 3 = node 1 (b), second slot; task 1 on slot 0 = node 0 (a), first; and so on.
  EXPECT_EQ(emit(LauncherFormat::openmpi_rankfile, kSquare, kShuffle, kHosts),
            "rank 0=b slot=1\n"
            "rank 1=a slot=0\n"
            "rank 2=d slot=1\n"
            "rank 3=c slot=0\n"
            "rank 4=a slot=1\n"
            "rank 5=d slot=0\n"
            "rank 6=b slot=0\n"
            "rank 7=c slot=1\n");
}

TEST(LauncherFile, HostFilesGiveTheHostOfEachRankInRankOrder) {
  const std::string expected = "b\na\nd\nc\na\nd\nb\nc\n";
  EXPECT_EQ(emit(LauncherFormat::mpich_hostfile, kSquare, kShuffle, kHosts), expected);
  EXPECT_EQ(emit(LauncherFormat::slurm_hostfile, kSquare, kShuffle, kHosts), expected);
  EXPECT_EQ(emit(LauncherFormat::smpi_hostfile, kSquare, kShuffle, kHosts), expected);
}

TEST(LauncherFile, SlotWithinANodeFollowsTheAllocationNotTheRankDivision) {
  // Round-robin placement: slots 0 and 2 on node 0, 1 and 3 on node 1.
  const Allocation alloc(Grid::parse("mesh:2"), {0, 1, 0, 1});
  EXPECT_EQ(emit(LauncherFormat::openmpi_rankfile, alloc, {0, 1, 2, 3}, {"x", "y"}),
            "rank 0=x slot=0\nrank 1=y slot=0\nrank 2=x slot=1\nrank 3=y slot=1\n");
}

TEST(LauncherFile, BgqMapfileGivesABCDET) {
  // Nodes 31 = (1,1,1,1,1) then 1 = (0,0,0,0,1) of the 2x2x2x2x2 torus, two slots each.
  const Grid grid = Grid::parse("torus:2x2x2x2x2");
  const std::vector<NodeId> nodes = {31, 1};
  const Allocation alloc = Allocation::of_nodes(grid, nodes, 2);
  EXPECT_EQ(emit(LauncherFormat::bgq_mapfile, alloc, {2, 1, 0, 3}, {}),
            "0 0 0 0 1 0\n"
            "1 1 1 1 1 1\n"
            "1 1 1 1 1 0\n"
            "0 0 0 0 1 1\n");
}

TEST(LauncherFile, SimGridNumbersDimensionZeroFastest) {
  // torus:2x3: rankmap's node c0*3 + c1, SimGrid's c0 + 2*c1.
  const Grid grid = Grid::parse("torus:2x3");
  EXPECT_EQ(simgrid_torus_id(grid, 0), 0);  // (0,0)
  EXPECT_EQ(simgrid_torus_id(grid, 1), 2);  // (0,1)
  EXPECT_EQ(simgrid_torus_id(grid, 2), 4);  // (0,2)
  EXPECT_EQ(simgrid_torus_id(grid, 3), 1);  // (1,0)
  EXPECT_EQ(simgrid_torus_id(grid, 5), 5);  // (1,2)
  const Allocation alloc = Allocation::full(grid, 1);
  EXPECT_EQ(simgrid_host_names(alloc, "n"), (std::vector<std::string>{"n0", "n2", "n4", "n1", "n3", "n5"}));
  // Task t on slot 5-t: the nodes in reverse.
  EXPECT_EQ(emit(LauncherFormat::smpi_hostfile, alloc, {5, 4, 3, 2, 1, 0}, simgrid_host_names(alloc, "host-")),
            "host-5\nhost-3\nhost-1\nhost-4\nhost-2\nhost-0\n");
}

TEST(LauncherFile, SimGridNamesNeedATorus) {
  try {
    simgrid_host_names(Allocation::full(Grid::parse("mesh:2x2"), 1), "n");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("need a torus in every dimension"));
  }
}

void expect_error(LauncherFormat format, const Allocation& alloc, const std::vector<std::string>& hosts,
                  const std::string& message) {
  std::vector<SlotId> identity(static_cast<std::size_t>(alloc.num_slots()));
  for (SlotId s = 0; s < alloc.num_slots(); ++s) identity[s] = s;
  try {
    emit(format, alloc, identity, hosts);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(message));
  }
}

TEST(LauncherFile, WrongInputsAreNamed) {
  expect_error(LauncherFormat::mpich_hostfile, kSquare, {"a", "b"},
               "mpich-hostfile needs one host name per node: 2 names for 4 nodes");
  expect_error(LauncherFormat::bgq_mapfile, kSquare, {}, "bgq-mapfile needs a 5-dimensional grid");
  try {
    parse_launcher_format("rankfile");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("--format 'rankfile' is not a launcher format; expected one of openmpi-rankfile, "
                                    "mpich-hostfile, slurm-hostfile, bgq-mapfile, smpi-hostfile"));
  }
}

TEST(LauncherFile, FormatNamesRoundTrip) {
  for (const auto f : {LauncherFormat::openmpi_rankfile, LauncherFormat::mpich_hostfile, LauncherFormat::slurm_hostfile,
                       LauncherFormat::bgq_mapfile, LauncherFormat::smpi_hostfile})
    EXPECT_EQ(parse_launcher_format(format_name(f)), f);
}

TEST(LauncherFile, HostListSkipsCommentsAndRefusesTwoWords) {
  std::istringstream good("# nodes\nnode-a\n\n  node-b  # the second\n");
  EXPECT_EQ(parse_host_list(good, "h"), (std::vector<std::string>{"node-a", "node-b"}));
  std::istringstream bad("a\nb c\n");
  EXPECT_THROW(
      {
        try {
          parse_host_list(bad, "h");
        } catch (const InputError& e) {
          EXPECT_THAT(e.what(), HasSubstr("h:2: one host name per line"));
          throw;
        }
      },
      InputError);
  std::istringstream empty("# none\n");
  EXPECT_THROW(parse_host_list(empty, "h"), InputError);
}

TEST(LauncherFile, AMappingMustBeForTheAllocationsFirstSlots) {
  mapping::MappingFile m;
  m.tasks = 3;
  m.allocation_hash = kSquare.first_slots(3).hash();
  m.slot_of = {2, 0, 1};
  EXPECT_EQ(allocation_of_mapping(m, kSquare, "m.map").num_slots(), 3);
  m.allocation_hash = kSquare.first_slots(4).hash();
  try {
    allocation_of_mapping(m, kSquare, "m.map");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("m.map: allocation hash " + hash_to_hex(m.allocation_hash) + " does not match"));
  }
  m.tasks = 9;
  EXPECT_THROW(allocation_of_mapping(m, kSquare, "m.map"), InputError);
}

}  // namespace
}  // namespace rankmap::launch
