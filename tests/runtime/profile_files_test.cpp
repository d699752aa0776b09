// The files of RANKMAP_PROFILE: what `rankmap map` and `rankmap place` read back, and the summary.
#include "profile_files.hpp"

#include <rankmap/graph/matrix_market.hpp>
#include <rankmap/mapping/mapping_file.hpp>
#include <rankmap/topology/coordinate_file.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include "temp_path.hpp"

namespace rankmap::runtime {
namespace {

using ::testing::HasSubstr;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class ProfileFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = rankmap::testing::unique_temp_path("rankmap_profile_files");
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    prefix_ = dir_ + "/app";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  /// Four processes, two per node of a 2-node line; rank 1 sends in two phases, rank 2 to itself.
  GatheredProfile profile(std::vector<NodeId> node_of_slot) const {
    GatheredProfile p;
    p.processes = 4;
    p.phases = 2;
    p.phase_origin = graph::PhaseOrigin::pcontrol;
    p.sends = {{1, 1, 0, {100, 2}}, {1, 2, 0, {50, 1}}, {0, 1, 3, {8, 1}}, {2, 1, 2, {999, 1}}};
    p.collectives = {{CollectiveOp::allreduce, 4, 4, 64}};
    p.placement = Placement{Placement::Mode::network,
                            topology::Allocation(topology::Grid::parse("mesh:2"), std::move(node_of_slot)),
                            {-1, -1, -1, -1}};
    p.node_hosts = {"n0", "n1"};
    return p;
  }

  std::string dir_, prefix_;
};

TEST_F(ProfileFiles, GraphsPhasesAndAllocationReadBack) {
  const std::string line = write_profile(prefix_, profile({0, 0, 1, 1}));
  EXPECT_THAT(line, HasSubstr("profile of 4 processes: 158 bytes in 5 messages over 2 edges"));
  EXPECT_THAT(line, HasSubstr("collectives 64 bytes in 4 calls"));
  EXPECT_THAT(line, HasSubstr("wrote " + prefix_ + ".{mtx,summary,phase1..2.mtx,coords,hosts}"));

  const graph::CommGraph all = graph::read_matrix_market(prefix_ + ".mtx");
  EXPECT_EQ(all.num_edges(), 2);  // the self send is not an edge
  EXPECT_EQ(all.out_weights(1)[0], 150);
  EXPECT_EQ(all.out_weights(0)[0], 8);
  EXPECT_EQ(graph::read_matrix_market(prefix_ + ".phase1.mtx").total_weight(), 108);
  EXPECT_EQ(graph::read_matrix_market(prefix_ + ".phase2.mtx").total_weight(), 50);

  const auto coords = topology::read_coordinate_file(prefix_ + ".coords");
  ASSERT_EQ(coords.nodes.size(), 2u);
  EXPECT_EQ(coords.nodes[1].host, "n1");
  EXPECT_EQ(coords.nodes[1].slots, 2);
  EXPECT_EQ(topology::allocation_of(coords, 0).hash(), profile({0, 0, 1, 1}).placement->alloc.hash());
  EXPECT_EQ(slurp(prefix_ + ".hosts"), "n0\nn1\n");
  EXPECT_FALSE(std::filesystem::exists(prefix_ + ".launch.map"));

  const std::string summary = slurp(prefix_ + ".summary");
  EXPECT_THAT(
      summary,
      HasSubstr(
          "processes 4\nphases 2\nphase_rule pcontrol\nedges 2\np2p_bytes 158\np2p_messages 5\nself_bytes 999\n"));
  EXPECT_THAT(summary, HasSubstr("collective_bytes 64\ncollective_calls 4\n"));
  EXPECT_THAT(summary, HasSubstr("collective allreduce size=4 calls=4 bytes=64\n"));
  EXPECT_EQ(graph::read_phase_origin(prefix_ + ".summary"), graph::PhaseOrigin::pcontrol) << "what place reads back";
}

// Round-robin placement (ranks 0 and 2 on node 0): the coordinate file lists each node's slots one
// after another, so PREFIX.launch.map records where each rank really ran.
TEST_F(ProfileFiles, RoundRobinLaunchIsRecorded) {
  write_profile(prefix_, profile({0, 1, 0, 1}));
  const graph::CommGraph graph = graph::read_matrix_market(prefix_ + ".mtx");
  const auto alloc = topology::allocation_of(topology::read_coordinate_file(prefix_ + ".coords"), 0);
  const auto launch = mapping::read_mapping_file(prefix_ + ".launch.map");
  EXPECT_NO_THROW(mapping::check_mapping_matches(launch, graph, alloc, "launch.map"));
  EXPECT_EQ(launch.slot_of, (mapping::Mapping{0, 2, 1, 3}));
}

TEST_F(ProfileFiles, WithoutPlacementOnlyTheGraphs) {
  GatheredProfile p = profile({0, 0, 1, 1});
  p.placement.reset();
  p.phase_origin = graph::PhaseOrigin::none;
  p.placement_failure = "rank 3 could not locate itself";
  const std::string line = write_profile(prefix_, p);
  EXPECT_THAT(line, HasSubstr("wrote " + prefix_ + ".{mtx,summary}; no allocation: rank 3 could not locate itself"));
  EXPECT_FALSE(std::filesystem::exists(prefix_ + ".coords"));
  EXPECT_FALSE(std::filesystem::exists(prefix_ + ".phase1.mtx"));
  EXPECT_EQ(graph::read_phase_origin(prefix_ + ".summary"), graph::PhaseOrigin::none);
}

TEST_F(ProfileFiles, UnwritablePrefixIsNamed) {
  try {
    write_profile("/nonexistent/dir/app", profile({0, 0, 1, 1}));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/nonexistent/dir/app.mtx"));
  }
}

}  // namespace
}  // namespace rankmap::runtime
