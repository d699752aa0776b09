// Slurm's hostlist expressions and tree topology (topology.conf, scontrol show topology) to a fat-tree.
#include <rankmap/topology/hostlist.hpp>
#include <rankmap/topology/slurm_topology.hpp>

#include "input_errors.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace rankmap::topology {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(Hostlist, RangesListsAndPadding) {
  EXPECT_THAT(expand_hostlist("nid[001-003,010],login1", "x"), ElementsAre("nid001", "nid002", "nid003", "nid010", "login1"));
  // Two brackets: every combination, the last fastest; 08-10 keeps the lower bound's two digits.
  EXPECT_THAT(expand_hostlist("r[1-2]n[08-10]", "x"), ElementsAre("r1n08", "r1n09", "r1n10", "r2n08", "r2n09", "r2n10"));
  EXPECT_THAT(expand_hostlist("tux[0-3,12,18-20]", "x"),
              ElementsAre("tux0", "tux1", "tux2", "tux3", "tux12", "tux18", "tux19", "tux20"));
  EXPECT_THAT(expand_hostlist("a[7]b", "x"), ElementsAre("a7b"));
  EXPECT_THAT(expand_hostlist("[1-2]", "x"), ElementsAre("1", "2"));
}

TEST(Hostlist, BadExpressionsAreNamed) {
  EXPECT_EQ(testing::input_error_of([] { expand_hostlist("nid[3-1]", "topology.conf:4: Nodes="); }),
            "topology.conf:4: Nodes=: hostlist 'nid[3-1]': range '3-1' goes down");
  EXPECT_THAT(testing::input_error_of([] { expand_hostlist("nid[1-2", "x"); }), HasSubstr("'[' without ']'"));
  EXPECT_THAT(testing::input_error_of([] { expand_hostlist("a,,b", "x"); }), HasSubstr("an empty name"));
  EXPECT_THAT(testing::input_error_of([] { expand_hostlist("n]", "x"); }), HasSubstr("']' without '['"));
  EXPECT_THAT(testing::input_error_of([] { expand_hostlist("n[a]", "x"); }), HasSubstr("unexpected 'a' in brackets"));
  EXPECT_THAT(testing::input_error_of([] { expand_hostlist("n[[1]]", "x"); }), HasSubstr("nested '['"));
  EXPECT_THAT(testing::input_error_of([] { expand_hostlist("n[0-2000000]", "x"); }), HasSubstr("more than 1048576 names"));
  EXPECT_THAT(testing::input_error_of([] { expand_hostlist("n[0-999]m[0-999]o[0-9]", "x"); }), HasSubstr("more than 1048576"));
}

SlurmTree tree_of(const std::string& text) {
  std::istringstream in(text);
  return slurm_tree(parse_slurm_topology(in, "t.conf"), "t.conf");
}

std::string error_of(const std::string& text) {
  return testing::input_error_of([&] { (void)tree_of(text); });
}

TEST(SlurmTopology, TopologyConfAndScontrolGiveTheSameTree) {
  const std::string conf =
      "# two leaf switches under one top\n"
      "SwitchName=s0 Nodes=nid[001-003] LinkSpeed=100\n"
      "switchname=s1 nodes=nid004,nid[010-011],nid012   # keys are case-insensitive\n"
      "SwitchName=top Switches=s[0-1]\n";
  const std::string scontrol =  // src/api/topo_info.c prints Level and LinkSpeed, and a trailing blank
      "SwitchName=s0 Level=0 LinkSpeed=1 Nodes=nid[001-003] \n"
      "SwitchName=s1 Level=0 LinkSpeed=1 Nodes=nid004,nid[010-012] \n"
      "SwitchName=top Level=1 LinkSpeed=1 Switches=s[0-1] \n";
  for (const std::string& text : {conf, scontrol}) {
    const SlurmTree tree = tree_of(text);
    // d1 = 4 (s1's four nodes), d2 = 2 (top's two switches); one parent and one link everywhere.
    EXPECT_EQ(tree.network.to_string(), "fattree:2;4,2;1,1;1,1");
    EXPECT_THAT(tree.hosts, ElementsAre("nid001", "nid002", "nid003", "nid004", "nid010", "nid011", "nid012"));
    // s0 is child 0 of top: nodes 0..2 (3 unused); s1 is child 1: nodes 4..7.
    EXPECT_THAT(tree.nodes, ElementsAre(0, 1, 2, 4, 5, 6, 7));
  }
}

TEST(SlurmTopology, SeveralRootsAreJoinedUnderOneMoreLevel) {
  const SlurmTree tree = tree_of(
      "SwitchName=a0 Nodes=n[0-1]\nSwitchName=a1 Nodes=n[2-3]\nSwitchName=b0 Nodes=n[4-5]\n"
      "SwitchName=A Switches=a[0-1]\nSwitchName=B Switches=b0\n");
  // d1 = 2, d2 = 2 (A's two), d3 = 2 roots. b0 is child 0 of root 1: base 0*2 + 1*(2*2) = 4.
  EXPECT_EQ(tree.network.to_string(), "fattree:3;2,2,2;1,1,1;1,1,1");
  EXPECT_THAT(tree.nodes, ElementsAre(0, 1, 2, 3, 4, 5));
}

TEST(SlurmTopology, OneLeafSwitchIsOneLevel) {
  const SlurmTree tree = tree_of("SwitchName=only Nodes=c[1-3]\n");
  EXPECT_EQ(tree.network.to_string(), "fattree:1;3;1;1");
  EXPECT_THAT(tree.nodes, ElementsAre(0, 1, 2));
}

TEST(SlurmTopology, BadFilesNameTheLine) {
  EXPECT_EQ(error_of("SwitchName=s0 Nodes=a\nBlockName=b1 Nodes=a\n"),
            "t.conf:2: unknown word 'BlockName=b1'; expected SwitchName=, Switches=, Nodes=, LinkSpeed= or Level= (topology/tree)");
  EXPECT_THAT(error_of("SwitchName=s0 Nodes=a Switches=s1\n"), HasSubstr("t.conf:1: switch 's0' needs either Nodes= or Switches=, not both"));
  EXPECT_THAT(error_of("SwitchName=s0\n"), HasSubstr("not neither"));
  EXPECT_THAT(error_of("Nodes=a\n"), HasSubstr("t.conf:1: a line without SwitchName="));
  EXPECT_THAT(error_of("SwitchName=s0 Nodes=a LinkSpeed=fast\n"), HasSubstr("t.conf:1: LinkSpeed='fast' must be a non-negative integer"));
  EXPECT_THAT(error_of("SwitchName=s0 Nodes=a Nodes=b\n"), HasSubstr("t.conf:1: Nodes= appears twice"));
  EXPECT_THAT(error_of("SwitchName=s0 Nodes=n[1-\n"), HasSubstr("t.conf:1: Nodes=: hostlist 'n[1-'"));
  EXPECT_THAT(error_of("# nothing\n"), HasSubstr("t.conf: no SwitchName= line"));
  EXPECT_EQ(error_of("SwitchName=s0 Nodes=a\nSwitchName=s0 Nodes=b\n"), "t.conf:2: switch 's0' is defined again (first on line 1)");
  EXPECT_EQ(error_of("SwitchName=top Switches=s[0-1]\nSwitchName=s0 Nodes=a\n"),
            "t.conf:1: switch 's1' in Switches= is defined on no line");
  EXPECT_THAT(error_of("SwitchName=s0 Nodes=a\nSwitchName=x Switches=s0\nSwitchName=y Switches=s0\n"),
              HasSubstr("t.conf:3: switch 's0' already has a parent, 'x'"));
  EXPECT_THAT(error_of("SwitchName=s0 Switches=s1\nSwitchName=s1 Switches=s0\nSwitchName=l Nodes=a\n"),
              HasSubstr("t.conf:1: switch 's0' lies on a cycle"));
  EXPECT_THAT(error_of("SwitchName=l0 Nodes=a\nSwitchName=l1 Nodes=b\nSwitchName=m Switches=l1\nSwitchName=t Switches=l0,m\n"),
              HasSubstr("leaf switch 'l1' lies 2 levels below the top, others 1"));
  EXPECT_THAT(error_of("SwitchName=l0 Nodes=a\nSwitchName=l1 Nodes=a\n"), HasSubstr("t.conf:2: node 'a' is under two leaf switches"));
  std::string deep = "SwitchName=s0 Nodes=a\n";
  for (int i = 1; i <= 9; ++i) deep += "SwitchName=s" + std::to_string(i) + " Switches=s" + std::to_string(i - 1) + "\n";
  EXPECT_THAT(error_of(deep), HasSubstr("deeper than 8 levels"));
}

}  // namespace
}  // namespace rankmap::topology
