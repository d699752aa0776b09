// Coordinate providers with fakes of the system calls: spec parsing, emulation, file, BG/Q, Cray, hwloc sockets.
#include "hostname.hpp"
#include "hwloc_socket.hpp"
#include "providers.hpp"

#include "input_errors.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include "temp_path.hpp"

namespace rankmap::coords {
namespace {

using ::testing::HasSubstr;

TEST(CoordsSpec, ParsesEveryForm) {
  EXPECT_EQ(CoordsSpec::parse("").kind, CoordsSpec::Kind::automatic);
  EXPECT_EQ(CoordsSpec::parse("auto").kind, CoordsSpec::Kind::automatic);
  EXPECT_EQ(CoordsSpec::parse("bgq").kind, CoordsSpec::Kind::bgq);
  EXPECT_EQ(CoordsSpec::parse("cray").kind, CoordsSpec::Kind::cray);
  EXPECT_EQ(CoordsSpec::parse("hostname").kind, CoordsSpec::Kind::hostname);
  const CoordsSpec file = CoordsSpec::parse("file:/tmp/x.coords");
  EXPECT_EQ(file.kind, CoordsSpec::Kind::file);
  EXPECT_EQ(file.path, "/tmp/x.coords");
  const CoordsSpec emu = CoordsSpec::parse("emulate:grid:4x2:torus=10,ppn=4,sockets=2");
  EXPECT_EQ(emu.kind, CoordsSpec::Kind::emulate);
  EXPECT_EQ(emu.grid, "grid:4x2:torus=10");
  EXPECT_EQ(emu.ppn, 4);
  EXPECT_EQ(emu.sockets, 2);
  EXPECT_EQ(CoordsSpec::parse("emulate:torus:4x4x4").ppn, 1);
}

TEST(CoordsSpec, RejectsBadValuesByName) {
  EXPECT_THAT(testing::input_error_of([] { CoordsSpec::parse("torus"); }), HasSubstr("'torus': expected auto, file:PATH"));
  EXPECT_THAT(testing::input_error_of([] { CoordsSpec::parse("file:"); }), HasSubstr("'file:'"));
  EXPECT_THAT(testing::input_error_of([] { CoordsSpec::parse("emulate:torus:4x0"); }), HasSubstr("'emulate:torus:4x0'"));
  EXPECT_THAT(testing::input_error_of([] { CoordsSpec::parse("emulate:torus:4,ppn=0"); }), HasSubstr("ppn must be an integer"));
  EXPECT_THAT(testing::input_error_of([] { CoordsSpec::parse("emulate:torus:4,cores=2"); }), HasSubstr("unknown option 'cores=2'"));
  EXPECT_THAT(testing::input_error_of([] { CoordsSpec::parse("emulate:torus:4,ppn=3,sockets=2"); }),
              HasSubstr("ppn must be a multiple of sockets"));
}

TEST(CoordsSpec, EmulatesFatTreesAndDragonfliesWhoseSpecsHaveCommas) {
  const CoordsSpec tree = CoordsSpec::parse("emulate:fattree:2;4,4;1,2;1,2,ppn=2");
  EXPECT_EQ(tree.grid, "fattree:2;4,4;1,2;1,2");
  EXPECT_EQ(tree.ppn, 2);
  EXPECT_EQ(CoordsSpec::parse("emulate:dragonfly:2,1;1,1;2,1;2").grid, "dragonfly:2,1;1,1;2,1;2");
  EXPECT_THAT(testing::input_error_of([] { CoordsSpec::parse("emulate:fattree:2;4,4;1,2;1,2,cores=2"); }),
              HasSubstr("unknown option 'cores=2'"));
  EXPECT_THAT(testing::input_error_of([] { CoordsSpec::parse("emulate:fattree:2;4,4;1,2"); }),
              HasSubstr("'emulate:fattree:2;4,4;1,2'"));
}

TEST(EmulationProvider, PutsRankROnNodeROverPpnOfAFatTree) {
  const auto p = make_emulation_provider(CoordsSpec::parse("emulate:fattree:2;4,4;1,2;1,2,ppn=2"));
  const Location where = p->locate(5, 32);
  EXPECT_FALSE(where.grid);
  ASSERT_TRUE(where.network);
  EXPECT_EQ(*where.network, topology::Network::parse("fattree:2;4,4;1,2;1,2"));
  EXPECT_EQ(where.network_node, 2);
  EXPECT_EQ(where.node_key, 2u);
  EXPECT_THAT(testing::input_error_of([&] { p->locate(0, 33); }), HasSubstr("fewer than the 33 processes"));
}

TEST(EmulationProvider, RankRIsOnNodeROverPpnOfTheRowMajorWalk) {
  const auto p = make_emulation_provider(CoordsSpec::parse("emulate:torus:2x3,ppn=4,sockets=2"));
  // Rank 13 is on node 13/4 = 3, which is (1,0) in a 2x3 row-major walk; slot 13%4 = 1 is on socket 1/(4/2) = 0.
  const Location where = p->locate(13, 24);
  ASSERT_TRUE(where.grid.has_value());
  EXPECT_EQ(*where.grid, topology::Grid::parse("torus:2x3"));
  EXPECT_EQ(where.coords[0], 1);
  EXPECT_EQ(where.coords[1], 0);
  EXPECT_EQ(where.node_key, 3u);
  EXPECT_EQ(where.socket, 0);
  EXPECT_EQ(p->locate(15, 24).socket, 1);
}

TEST(EmulationProvider, TooManyProcessesIsAnError) {
  const auto p = make_emulation_provider(CoordsSpec::parse("emulate:torus:2x2,ppn=2"));
  EXPECT_EQ(testing::input_error_of([&] { p->locate(0, 9); }),
            "RANKMAP_COORDS=emulate:torus:2x2: 4 nodes x ppn 2 = 8 slots, fewer than the 9 processes");
}

class FileProviderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = rankmap::testing::unique_temp_path("rankmap_coords_test") + ".coords";
    std::ofstream(path_) << "grid 2x2 torus=10\nnode alpha.example.org 0 1\nnode beta 1 1\n";
  }
  void TearDown() override { std::remove(path_.c_str()); }
  std::string path_;
};

std::string host_beta() { return "beta"; }
std::string host_alpha_short() { return "alpha"; }
std::string host_gamma() { return "gamma"; }

TEST_F(FileProviderTest, LooksTheHostUp) {
  const Location where = make_file_provider(path_, &host_beta)->locate(0, 1);
  EXPECT_EQ(*where.grid, topology::Grid::parse("grid:2x2:torus=10"));
  EXPECT_EQ(where.coords[0], 1);
  EXPECT_EQ(where.coords[1], 1);
  EXPECT_EQ(where.node_key, node_key_of_host("beta"));
}

TEST_F(FileProviderTest, MatchesShortHostNames) {
  const Location where = make_file_provider(path_, &host_alpha_short)->locate(0, 1);
  EXPECT_EQ(where.coords[1], 1);
  EXPECT_EQ(where.node_key, node_key_of_host("alpha.example.org"));
}

TEST_F(FileProviderTest, MissingHostNamesFileAndHost) {
  EXPECT_EQ(testing::input_error_of([&] { make_file_provider(path_, &host_gamma)->locate(0, 1); }),
            path_ + ": host 'gamma' is not listed");
}

TEST(FileProvider, ReadsANetworkAllocationFile) {
  const std::string path = rankmap::testing::unique_temp_path("rankmap_coords_network") + ".alloc";
  std::ofstream(path) << "network dragonfly:2,1;1,1;2,1;2\nnode alpha 3\nnode beta 6 slots=2\n";
  const Location where = make_file_provider(path, &host_beta)->locate(0, 1);
  EXPECT_FALSE(where.grid);
  ASSERT_TRUE(where.network);
  EXPECT_EQ(*where.network, topology::Network::parse("dragonfly:2,1;1,1;2,1;2"));
  EXPECT_EQ(where.network_node, 6);
  EXPECT_EQ(where.node_key, node_key_of_host("beta"));
  std::remove(path.c_str());
}

TEST(FileProvider, BadFileNamesTheLine) {
  const std::string path = rankmap::testing::unique_temp_path("rankmap_coords_bad") + ".coords";
  std::ofstream(path) << "grid 2x2 torus=10\nnode beta 1\n";
  EXPECT_EQ(testing::input_error_of([&] { make_file_provider(path, &host_beta)->locate(0, 1); }),
            path + ":2: expected 'node <host>' and 2 coordinates, found 1 coordinates");
  std::remove(path.c_str());
}

bool fake_personality(BgqPersonality& p) {
  p.coords = {1, 0, 3, 2, 1};
  p.extents = {2, 2, 4, 4, 2};
  p.torus = {true, true, true, false, true};
  return true;
}
bool failing_personality(BgqPersonality&) { return false; }
bool broken_personality(BgqPersonality& p) {
  fake_personality(p);
  p.coords[2] = 4;
  return true;
}

TEST(BgqProvider, ReadsCoordinatesAndTorusFlags) {
  const Location where = make_bgq_provider(&fake_personality)->locate(0, 1);
  EXPECT_EQ(*where.grid, topology::Grid::parse("grid:2x2x4x4x2:torus=11101"));
  EXPECT_EQ((std::vector<int>(where.coords.begin(), where.coords.begin() + 5)), (std::vector<int>{1, 0, 3, 2, 1}));
  // Row-major node id: ((((1*2+0)*4+3)*4+2)*2+1) = 93.
  EXPECT_EQ(where.node_key, 93u);
}

TEST(BgqProvider, KernelFailureAndBadCoordinatesAreErrors) {
  EXPECT_EQ(testing::input_error_of([] { make_bgq_provider(&failing_personality)->locate(0, 1); }),
            "RANKMAP_COORDS=bgq: Kernel_GetPersonality failed");
  EXPECT_THAT(testing::input_error_of([] { make_bgq_provider(&broken_personality)->locate(0, 1); }),
              HasSubstr("coordinate C=4 lies outside its extent 4"));
}

int fake_rank(int* rank) { return *rank = 5, 0; }
int fake_nid(int rank, int* nid) { return *nid = 100 + rank, 0; }
int fake_mesh(int nid, int xyz[3]) {
  if (nid != 105) return -1;
  xyz[0] = 2, xyz[1] = 0, xyz[2] = 7;
  return 0;
}
int fake_max(int xyz[3]) { return xyz[0] = 3, xyz[1] = 5, xyz[2] = 7, 0; }
int failing_nid(int, int*) { return -1; }

TEST(CrayProvider, NidAndMeshCoordinatesGiveATorus) {
  const Location where = make_cray_provider({&fake_rank, &fake_nid, &fake_mesh, &fake_max})->locate(0, 1);
  EXPECT_EQ(*where.grid, topology::Grid::parse("torus:4x6x8"));
  EXPECT_EQ(where.coords[0], 2);
  EXPECT_EQ(where.coords[2], 7);
  EXPECT_EQ(where.node_key, 105u);
}

TEST(CrayProvider, FailingCallsAreNamed) {
  EXPECT_EQ(testing::input_error_of([] { make_cray_provider({&fake_rank, &failing_nid, &fake_mesh, &fake_max})->locate(0, 1); }),
            "RANKMAP_COORDS=cray: PMI_Get_nid failed");
}

TEST(MachineProviders, UnsupportedMachinesAreClearErrors) {
#ifndef RANKMAP_HAVE_BGQ
  EXPECT_THAT(testing::input_error_of([] { make_provider(CoordsSpec::parse("bgq")); }), HasSubstr("no Blue Gene/Q support"));
#endif
#ifndef RANKMAP_HAVE_CRAY_RCA
  EXPECT_THAT(testing::input_error_of([] { make_provider(CoordsSpec::parse("cray")); }), HasSubstr("no Cray support"));
#endif
  EXPECT_FALSE(make_provider(CoordsSpec::parse("auto"))->locate(0, 1).grid.has_value());
}

TEST(HostnameProvider, NodeKeyIsTheHostsHash) {
  const Location where = make_hostname_provider()->locate(0, 1);
  EXPECT_EQ(where.node_key, node_key_of_host(this_host_name()));
  EXPECT_FALSE(where.grid.has_value());
  EXPECT_EQ(short_host_name("a.b.c"), "a");
}

class SyntheticTopology : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(hwloc_topology_init(&topology_), 0);
    // 2 packages x 2 cores x 2 PUs: PUs 0-3 are in package 0, PUs 4-7 in package 1.
    ASSERT_EQ(hwloc_topology_set_synthetic(topology_, "pack:2 core:2 pu:2"), 0);
    ASSERT_EQ(hwloc_topology_load(topology_), 0);
    set_ = hwloc_bitmap_alloc();
  }
  void TearDown() override {
    hwloc_bitmap_free(set_);
    hwloc_topology_destroy(topology_);
  }
  hwloc_topology_t topology_{};
  hwloc_bitmap_t set_{};
};

TEST_F(SyntheticTopology, PackageOfABoundSet) {
  hwloc_bitmap_set_range(set_, 2, 3);
  EXPECT_EQ(package_of_cpuset(topology_, set_), 0);
  hwloc_bitmap_only(set_, 6);
  EXPECT_EQ(package_of_cpuset(topology_, set_), 1);
}

TEST_F(SyntheticTopology, SetsAcrossPackagesOrEmptyHaveNone) {
  hwloc_bitmap_set_range(set_, 3, 4);
  EXPECT_EQ(package_of_cpuset(topology_, set_), -1);
  hwloc_bitmap_zero(set_);
  EXPECT_EQ(package_of_cpuset(topology_, set_), -1);
}

}  // namespace
}  // namespace rankmap::coords
