// SimGrid's fat-tree worked out by hand: labels, SimGrid ids, ports, hops, channels, tapering, routes.
#include <rankmap/topology/fat_tree.hpp>
#include <rankmap/topology/routing.hpp>

#include "route_names.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

namespace rankmap::topology {
namespace {

using testing::route_of;

/// The dmodk route as the ordered list of channel names (each share must be 1).
std::vector<std::string> path_of(const Network& n, NodeId src, NodeId dst) {
  const testing::Path path = testing::path_of(n, "dmodk", src, dst);
  EXPECT_TRUE(path.whole);
  return path.channels;
}

// fattree:2;4,4;1,2;1,2, SimGrid's documentation example: 16 nodes; leaf switch j holds nodes
// 4j..4j+3 (one parent per node, u1 = 1); 2 top switches, each leaf joined to each by 2 links.
const FatTree kTree = FatTree::parse("2;4,4;1,2;1,2");

TEST(FatTree, CountsDigitsAndSimGridIds) {
  EXPECT_EQ(kTree.elements(0), 16);
  EXPECT_EQ(kTree.elements(1), 4);
  EXPECT_EQ(kTree.elements(2), 2);
  // Node 6: digit 0 = 6 mod 4 = 2 (its port on the leaf), digit 1 = 6 / 4 = 1 (its leaf).
  EXPECT_EQ(kTree.digit(0, 6, 0), 2);
  EXPECT_EQ(kTree.digit(0, 6, 1), 1);
  // Switch ids count down from 2N - 1 = 31 in level order: leaves 31..28, tops 27 and 26.
  EXPECT_EQ(kTree.simgrid_id(0, 6), 6);
  EXPECT_EQ(kTree.simgrid_id(1, 0), 31);
  EXPECT_EQ(kTree.simgrid_id(1, 3), 28);
  EXPECT_EQ(kTree.simgrid_id(2, 1), 26);
}

TEST(FatTree, PortsAsSimGridNumbersThem) {
  EXPECT_EQ(kTree.parent(0, 6, 0), 1);
  // A leaf's up port q leads to top q mod 2 (u2 = 2), copy q / 2.
  EXPECT_EQ(kTree.parent(1, 1, 0), 0);
  EXPECT_EQ(kTree.parent(1, 1, 1), 1);
  EXPECT_EQ(kTree.parent(1, 1, 2), 0);
  EXPECT_EQ(kTree.parent(1, 1, 3), 1);
  // Top 1's down port 5 is leaf 5 mod 4 = 1, copy 5 / 4 = 1: leaf 1's up port 1 + 1 * 2 = 3.
  EXPECT_EQ(kTree.child(2, 1, 5), 1);
  EXPECT_EQ(kTree.child_up_port(2, 1, 5), 3);
  EXPECT_EQ(kTree.child(1, 1, 2), 6);
  EXPECT_EQ(kTree.channel_name(kTree.channel(1, 1, 3, true)), "up 30->26 #1");
  EXPECT_EQ(kTree.channel_name(kTree.channel(0, 6, 0, false)), "down 30->6 #0");
  const FatTree::ChannelEnds e = kTree.ends(kTree.channel(1, 2, 3, false));
  EXPECT_EQ(e.level, 1);
  EXPECT_EQ(e.position, 2);
  EXPECT_EQ(e.port, 3);
  EXPECT_FALSE(e.going_up);
}

TEST(FatTree, HopsAreTwiceTheLevelOfTheCommonAncestors) {
  EXPECT_EQ(kTree.hops(3, 3), 0);
  EXPECT_EQ(kTree.hops(0, 1), 2);   // same leaf: up, down
  EXPECT_EQ(kTree.hops(0, 5), 4);   // leaves 0 and 1: up, up, down, down
  EXPECT_EQ(kTree.hops(15, 0), 4);
  EXPECT_EQ(kTree.diameter(), 4);
  EXPECT_EQ(kTree.min_hops(), 2);
  EXPECT_EQ(kTree.level_size(1), 4);
  EXPECT_EQ(kTree.level_size(2), 16);
  EXPECT_EQ(kTree.min_hops_beyond(0), 2);
  EXPECT_EQ(kTree.min_hops_beyond(1), 4);
  EXPECT_TRUE(kTree.is_below(6, 1, 1));
  EXPECT_FALSE(kTree.is_below(6, 1, 2));
  EXPECT_TRUE(kTree.is_below(6, 2, 0));
}

TEST(FatTree, TaperingShowsInTheChannels) {
  // Every link is one channel each way, capacity 1: 16 node links and 4 x 2 x 2 leaf-top links.
  EXPECT_EQ(kTree.num_channels(), 64);
  EXPECT_EQ(kTree.total_capacity(), 64);
  EXPECT_EQ(kTree.max_node_capacity(), 1);
  // fattree:2;4,4;1,2;1,1 gives each leaf 4 links down but 2 up (one to each top): 2:1 tapered.
  const FatTree tapered = FatTree::parse("2;4,4;1,2;1,1");
  EXPECT_EQ(tapered.num_channels(), 2 * (16 + 4 * 2));
  EXPECT_EQ(tapered.up_ports(1), 2);
  EXPECT_EQ(tapered.down_ports(1), 4);
  // Nodes with two parents and two links to each (fattree:1;4;2;2): 4 up channels per node.
  EXPECT_EQ(FatTree::parse("1;4;2;2").max_node_capacity(), 4);
}

TEST(FatTree, DmodkGoesUpByTheDestinationAndDownTowardIt) {
  const Network n = kTree;
  // 0 -> 5: leaf 0 takes up port 5 mod 4 = 1 (top 1, copy 0); top 1 scans its down ports from
  // (0 mod 2) * 4 = 0 for leaf 1, port 1 (copy 0); leaf 1 hands it to node 5.
  EXPECT_EQ(path_of(n, 0, 5), (std::vector<std::string>{"up 0->31 #0", "up 31->26 #0", "down 26->30 #0", "down 30->5 #0"}));
  // 3 -> 10: up port 10 mod 4 = 2 (top 0, copy 1); down from (3 mod 2) * 4 = 4: port 6 (leaf 2, copy 1).
  EXPECT_EQ(path_of(n, 3, 10), (std::vector<std::string>{"up 3->31 #0", "up 31->27 #1", "down 27->29 #1", "down 29->10 #0"}));
  EXPECT_EQ(path_of(n, 1, 2), (std::vector<std::string>{"up 1->31 #0", "down 31->2 #0"}));
}

TEST(FatTree, DmodkKeepsScanningPortsOnTheWayDownAsSimGridDoes) {
  // fattree:2;2,2;1,1;2,1: two links between each node and its leaf. From the top, SimGrid scans
  // for leaf 1 from port 0 and takes port 1; at leaf 1 it scans on from port 2, so 0 -> 2 arrives
  // over copy 1 (a scan started afresh at leaf 1 would take copy 0 mod 2 = 0).
  const Network n = FatTree::parse("2;2,2;1,1;2,1");
  EXPECT_EQ(path_of(n, 0, 2), (std::vector<std::string>{"up 0->7 #0", "up 7->5 #0", "down 5->6 #0", "down 6->2 #1"}));
  EXPECT_EQ(path_of(n, 0, 3), (std::vector<std::string>{"up 0->7 #1", "up 7->5 #0", "down 5->6 #0", "down 6->3 #1"}));
  EXPECT_EQ(path_of(n, 0, 1), (std::vector<std::string>{"up 0->7 #1", "down 7->1 #0"}));
}

TEST(FatTree, AdaptiveSplitsEvenlyOverEveryShortestPath) {
  const Network n = kTree;
  // Up: node 0's one link, then the leaf's 4 up links a quarter each; down: both tops over both
  // copies into leaf 1 a quarter each, then leaf 1's link to node 5.
  const std::map<std::string, double> expected = {
      {"up 0->31 #0", 1},       {"up 31->27 #0", 0.25},   {"up 31->26 #0", 0.25},   {"up 31->27 #1", 0.25},
      {"up 31->26 #1", 0.25},   {"down 27->30 #0", 0.25}, {"down 26->30 #0", 0.25}, {"down 27->30 #1", 0.25},
      {"down 26->30 #1", 0.25}, {"down 30->5 #0", 1}};
  EXPECT_EQ(route_of(n, "adaptive", 0, 5), expected);
  EXPECT_EQ(route_of(n, "adaptive", 4, 6), (std::map<std::string, double>{{"up 4->30 #0", 1}, {"down 30->6 #0", 1}}));
  // Two parents per node (fattree:1;4;2;1): half the flow through each switch.
  const Network two = FatTree::parse("1;4;2;1");
  EXPECT_EQ(route_of(two, "adaptive", 0, 3), (std::map<std::string, double>{{"up 0->7 #0", 0.5}, {"up 0->6 #0", 0.5},
                                                                            {"down 7->3 #0", 0.5}, {"down 6->3 #0", 0.5}}));
}

TEST(FatTree, TaperedUplinksCarryTwiceTheLoad) {
  // Nodes 0..3 each send 1 byte to nodes 4..7, split evenly: over leaf 0's 4 up links untapered,
  // over 2 tapered.
  for (const auto& [spec, mcl] : {std::pair{"2;4,4;1,2;1,2", 1.0}, std::pair{"2;4,4;1,2;1,1", 2.0}}) {
    const Network n = FatTree::parse(spec);
    const auto model = make_routing_model(n, "adaptive");
    std::vector<double> loads(static_cast<std::size_t>(n.num_channel_slots()), 0.0);
    for (NodeId s = 0; s < 4; ++s) model->add_flow(s, s + 4, 1.0, loads);
    EXPECT_DOUBLE_EQ(*std::max_element(loads.begin(), loads.end()), mcl) << spec;
  }
}

TEST(FatTree, DmodkSpreadsUpByDestinationButPicksDownCopiesBySource) {
  // The same flows under dmodk: up ports 4, 5, 6, 7 mod 4 are all different, but going down the
  // copy is the source mod p2 = 2, so 0 -> 4 and 2 -> 6 (both through top 0) share copy 0 into leaf 1.
  const Network n = kTree;
  const auto model = make_routing_model(n, "dmodk");
  std::vector<double> loads(static_cast<std::size_t>(n.num_channel_slots()), 0.0);
  for (NodeId s = 0; s < 4; ++s) model->add_flow(s, s + 4, 1.0, loads);
  EXPECT_DOUBLE_EQ(loads[kTree.channel(1, 0, 2, true)], 1.0);  // leaf 0 to top 0, copy 1: 2 -> 6 only
  EXPECT_DOUBLE_EQ(loads[kTree.channel(1, 1, 0, false)], 2.0);  // top 0 to leaf 1, copy 0: 0 -> 4 and 2 -> 6
  EXPECT_DOUBLE_EQ(*std::max_element(loads.begin(), loads.end()), 2.0);
}

}  // namespace
}  // namespace rankmap::topology
