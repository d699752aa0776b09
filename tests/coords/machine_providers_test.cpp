// Today's machine providers with fakes of their system interfaces: Tofu, HPE Cray EX xnames, Slurm's tree.
#include "craype_rule.hpp"
#include "hostname.hpp"
#include "providers.hpp"
#include "xname.hpp"

#include "input_errors.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include "temp_path.hpp"

namespace rankmap::coords {
namespace {

using ::testing::HasSubstr;

// ---- tofu -------------------------------------------------------------------------------------

int fake_tofu(int rank, int c[6]) {
  const int coords[6] = {rank, 2, 3, 1, 2, 0};
  std::memcpy(c, coords, sizeof coords);
  return 0;
}
int failing_tofu(int, int*) { return 1; }

TEST(TofuProvider, SixCoordinatesOnFugakusGrid) {
  const Location where = make_tofu_provider(&fake_tofu, kFugakuXyz)->locate(1, 4);
  ASSERT_TRUE(where.grid.has_value());
  // X, Y, Z torus; A mesh of 2, B torus of 3, C mesh of 2.
  EXPECT_EQ(*where.grid, topology::Grid::parse("grid:24x23x24x2x3x2:torus=111010"));
  EXPECT_EQ(where.grid->num_nodes(), 158976);  // Fugaku's node count
  // Row-major (X slowest): ((((1*23 + 2)*24 + 3)*2 + 1)*3 + 2)*2 + 0 = 7246.
  EXPECT_EQ(where.node_key, 7246u);
  EXPECT_EQ(where.coords[0], 1);
  EXPECT_EQ(where.coords[4], 2);
}

TEST(TofuProvider, FailuresAndCoordinatesOutsideTheMachineAreNamed) {
  EXPECT_EQ(testing::input_error_of([] { make_tofu_provider(&failing_tofu, kFugakuXyz)->locate(3, 4); }),
            "RANKMAP_COORDS=tofu: FJMPI_Topology_get_coords failed for rank 3");
  // X = 30 on a machine of X = 24.
  EXPECT_THAT(testing::input_error_of([] { make_tofu_provider(&fake_tofu, kFugakuXyz)->locate(30, 40); }),
              HasSubstr("coordinate X=30 lies outside the machine's extent 24"));
  // A smaller machine given in the spec: Y = 2 holds no Y = 2.
  EXPECT_THAT(testing::input_error_of([] { make_tofu_provider(&fake_tofu, {4, 2, 4})->locate(0, 1); }),
              HasSubstr("coordinate Y=2 lies outside the machine's extent 2"));
}

TEST(CoordsSpec, TofuCrayPeAndSlurmForms) {
  EXPECT_EQ(CoordsSpec::parse("slurm").kind, CoordsSpec::Kind::slurm);
  EXPECT_EQ(CoordsSpec::parse("tofu").kind, CoordsSpec::Kind::tofu);
  EXPECT_EQ(parse_tofu_shape(CoordsSpec::parse("tofu:4x6x8").options), (std::array<int, 3>{4, 6, 8}));
  EXPECT_EQ(parse_tofu_shape(""), kFugakuXyz);
  EXPECT_EQ(CoordsSpec::parse("craype:groups=4").options, "groups=4");
  EXPECT_THAT(testing::input_error_of([] { CoordsSpec::parse("tofu:4x6"); }), HasSubstr("tofu:4x6: expected XxYxZ"));
  EXPECT_THAT(testing::input_error_of([] { CoordsSpec::parse("tofu:4x6x0"); }), HasSubstr("expected XxYxZ"));
  EXPECT_THAT(testing::input_error_of([] { CoordsSpec::parse("craype:cabs=2"); }), HasSubstr("unknown option 'cabs=2'"));
  EXPECT_THAT(testing::input_error_of([] { CoordsSpec::parse("slurmtree"); }), HasSubstr("'slurmtree': expected auto"));
}

// ---- craype -----------------------------------------------------------------------------------

TEST(Xname, ParsesTheFiveFieldsStrictly) {
  const Xname x = parse_xname("  x1000c3s5b0n1\n", "f");
  EXPECT_EQ(x.cabinet, 1000);
  EXPECT_EQ(x.chassis, 3);
  EXPECT_EQ(x.slot, 5);
  EXPECT_EQ(x.board, 0);
  EXPECT_EQ(x.node, 1);
  EXPECT_THAT(testing::input_error_of([] { parse_xname("x1000c3s5b0", "/etc/cray/xname:1"); }),
              HasSubstr("/etc/cray/xname:1: 'x1000c3s5b0' is not a node xname"));
  EXPECT_THAT(testing::input_error_of([] { parse_xname("x1000c3s5b0", "f"); }), HasSubstr("expected 'n' before the node number"));
  EXPECT_THAT(testing::input_error_of([] { parse_xname("x1000c3s5b0n1x", "f"); }), HasSubstr("unexpected text after"));
  EXPECT_THAT(testing::input_error_of([] { parse_xname("X1000c3s5b0n1", "f"); }), HasSubstr("expected 'x' before the cabinet"));
  EXPECT_THAT(testing::input_error_of([] { parse_xname("x1000c-3s5b0n1", "f"); }), HasSubstr("the chassis number is missing"));
  EXPECT_THAT(testing::input_error_of([] { parse_xname("x1000000c0s0b0n0", "f"); }), HasSubstr("cabinet number is larger"));
  EXPECT_THAT(testing::input_error_of([] { parse_xname("x1000c0r7b0", "f"); }), HasSubstr("expected 's'"));  // a switch
}

TEST(CrayPeRule, DefaultIsPerlmuttersCpuPartition) {
  const CrayPeRule rule;
  // 12 groups of 8 chassis x 2 switches = 16 switches; 8/2 = 4 slots x 2 boards x 2 nodes = 16 per switch.
  EXPECT_EQ(topology::Network(rule.network()).to_string(), "dragonfly:12,1;1,1;16,1;16");
  EXPECT_EQ(rule.network().num_nodes(), 3072);
  // x1003c5s6b1n0: group 3; switch 5*2 + 6/4 = 11; port (6%4)*2*2 + 1*2 + 0 = 10; (3*16 + 11)*16 + 10 = 954.
  EXPECT_EQ(rule.node_of({1003, 5, 6, 1, 0}, "f"), 954);
  EXPECT_EQ(rule.node_of({1000, 0, 0, 0, 0}, "f"), 0);
  EXPECT_EQ(rule.node_of({1011, 7, 7, 1, 1}, "f"), 3071);
  EXPECT_THAT(testing::input_error_of([&] { rule.node_of({1012, 0, 0, 0, 0}, "f:1"); }),
              HasSubstr("f:1: cabinet 1012 lies outside cabinets 1000..1011"));
  EXPECT_THAT(testing::input_error_of([&] { rule.node_of({1000, 8, 0, 0, 0}, "f:1"); }), HasSubstr("chassis 8 lies outside"));
}

TEST(CrayPeRule, SiteRules) {
  const CrayPeRule rule = CrayPeRule::parse("cab0=9000,cabinets=2,groups=4,switches=4,boards=1,global=3");
  // R = 2 cabinets x 8 chassis x 4 switches = 64; N = 8/4 slots x 1 board x 2 nodes = 4.
  EXPECT_EQ(topology::Network(rule.network()).to_string(), "dragonfly:4,3;1,1;64,1;4");
  // x9003c7s3b0n1: cabinet 3 is group 1, second cabinet; switch (1*8 + 7)*4 + 3/2 = 61; port (3%2)*2 + 1 = 3;
  // (1*64 + 61)*4 + 3 = 503.
  EXPECT_EQ(rule.node_of({9003, 7, 3, 0, 1}, "f"), 503);
  EXPECT_THAT(testing::input_error_of([] { CrayPeRule::parse("slots=7"); }), HasSubstr("slots (7) must be a multiple of switches (2)"));
  EXPECT_THAT(testing::input_error_of([] { CrayPeRule::parse("groups=0"); }), HasSubstr("groups must be an integer from 1"));
  EXPECT_THAT(testing::input_error_of([] { CrayPeRule::parse("groups=17"); }), HasSubstr("17 groups need at least as many routers"));
  EXPECT_THAT(testing::input_error_of([] { CrayPeRule::parse("nodes"); }), HasSubstr("unknown option 'nodes'"));
}

class CrayPeProviderTest : public ::testing::Test {
 protected:
  void SetUp() override { path_ = rankmap::testing::unique_temp_path("rankmap_xname_test"); }
  void TearDown() override { std::remove(path_.c_str()); }
  std::string path_;
};

TEST_F(CrayPeProviderTest, ReadsTheXnameFile) {
  std::ofstream(path_) << "x1003c5s6b1n0\n";
  const Location where = make_craype_provider("", path_)->locate(0, 1);
  EXPECT_FALSE(where.grid.has_value());
  ASSERT_TRUE(where.network.has_value());
  EXPECT_EQ(where.network->to_string(), "dragonfly:12,1;1,1;16,1;16");
  EXPECT_EQ(where.network_node, 954);
  EXPECT_EQ(where.node_key, 954u);
}

TEST_F(CrayPeProviderTest, BadOrMissingFilesNameThePath) {
  EXPECT_EQ(testing::input_error_of([&] { make_craype_provider("", path_)->locate(0, 1); }),
            "RANKMAP_COORDS=craype: cannot read " + path_);
  std::ofstream(path_) << "nid001234\n";
  EXPECT_THAT(testing::input_error_of([&] { make_craype_provider("", path_)->locate(0, 1); }),
              HasSubstr(path_ + ":1: 'nid001234' is not a node xname"));
}

// ---- slurm ------------------------------------------------------------------------------------

std::map<std::string, std::string>& fake_environment() {
  static std::map<std::string, std::string> env;
  return env;
}
const char* fake_getenv(const char* name) {
  const auto it = fake_environment().find(name);
  return it == fake_environment().end() ? nullptr : it->second.c_str();
}

std::string host_nid0042() { return "nid0042.cluster.example"; }

std::string slurm_error(const std::string& addr, const std::string& pattern) {
  fake_environment() = {{"SLURM_TOPOLOGY_ADDR", addr}, {"SLURM_TOPOLOGY_ADDR_PATTERN", pattern}};
  return testing::input_error_of([] { make_slurm_provider(&fake_getenv, &host_nid0042)->locate(0, 1); });
}

TEST(SlurmProvider, SwitchPathAndNodeFromTheEnvironment) {
  fake_environment() = {{"SLURM_TOPOLOGY_ADDR", "s1.s7.nid0042"}, {"SLURM_TOPOLOGY_ADDR_PATTERN", "switch.switch.node"}};
  const Location where = make_slurm_provider(&fake_getenv, &host_nid0042)->locate(0, 1);
  EXPECT_EQ(where.switch_path, (std::vector<std::string>{"s1", "s7"}));
  EXPECT_EQ(where.node_name, "nid0042");
  // The host name's key, as the hostname provider gives it; the names agree up to the first dot.
  EXPECT_EQ(where.node_key, node_key_of_host("nid0042.cluster.example"));
  EXPECT_FALSE(where.grid.has_value());
}

TEST(SlurmProvider, BadValuesNameTheVariable) {
  fake_environment().clear();
  EXPECT_THAT(testing::input_error_of([] { make_slurm_provider(&fake_getenv, &host_nid0042)->locate(0, 1); }),
              HasSubstr("SLURM_TOPOLOGY_ADDR and SLURM_TOPOLOGY_ADDR_PATTERN must both be set"));
  EXPECT_EQ(slurm_error("s1.nid1", "switch.switch.node"),
            "SLURM_TOPOLOGY_ADDR='s1.nid1' has 2 dot-separated names, but "
            "SLURM_TOPOLOGY_ADDR_PATTERN='switch.switch.node' has 3");
  EXPECT_THAT(slurm_error("nid1", "node"), HasSubstr("Slurm knows no switches"));
  EXPECT_THAT(slurm_error("s1.nid1.x", "switch.node.switch"), HasSubstr("expected 'switch' elements separated by dots, then 'node'"));
  EXPECT_EQ(slurm_error("s1..nid1", "switch.switch.node"), "SLURM_TOPOLOGY_ADDR='s1..nid1': element 2 is empty");
  EXPECT_THAT(slurm_error(std::string(5000, 's'), "switch.node"), HasSubstr("longer than 4096"));
  // Another node's variables, forwarded by a launcher from where mpiexec ran.
  EXPECT_EQ(slurm_error("s1.s7.nid0001", "switch.switch.node"),
            "SLURM_TOPOLOGY_ADDR='s1.s7.nid0001' names node 'nid0001', but this host is 'nid0042.cluster.example' "
            "(the variable was inherited from another node)");
}

// `auto` on this machine (no BG/Q, Cray XE, Tofu or /etc/cray/xname): slurm when the variables name
// this host, host names otherwise.
class AutoProviderTest : public ::testing::Test {
 protected:
  void TearDown() override {
    unsetenv("SLURM_TOPOLOGY_ADDR");
    unsetenv("SLURM_TOPOLOGY_ADDR_PATTERN");
  }
  static Location locate_with(const std::string& addr) {
    setenv("SLURM_TOPOLOGY_ADDR", addr.c_str(), 1);
    setenv("SLURM_TOPOLOGY_ADDR_PATTERN", "switch.switch.node", 1);
    return make_provider(CoordsSpec::parse("auto"))->locate(0, 1);
  }
};

TEST_F(AutoProviderTest, SlurmWhenTheVariablesNameThisHost) {
  const std::string host(short_host_name(this_host_name()));
  const Location where = locate_with("top.leaf3." + host);
  EXPECT_EQ(where.switch_path, (std::vector<std::string>{"top", "leaf3"}));
  EXPECT_EQ(where.node_key, node_key_of_host(this_host_name()));
}

TEST_F(AutoProviderTest, HostNamesWhenTheVariablesNameAnotherNode) {
  const Location where = locate_with("top.leaf3.not-this-host-" + this_host_name());
  EXPECT_TRUE(where.switch_path.empty());
  EXPECT_EQ(where.node_key, node_key_of_host(this_host_name()));
}

}  // namespace
}  // namespace rankmap::coords
