// SimGrid's dragonfly worked out by hand: numbering, channels and capacities, hops, and the routes.
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/topology/dragonfly.hpp>
#include <rankmap/topology/routing.hpp>

#include "route_names.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

namespace rankmap::topology {
namespace {

using testing::route_of;

std::vector<std::string> path_of(const Network& n, NodeId src, NodeId dst) {
  return testing::path_of(n, "minimal", src, dst).channels;
}

// dragonfly:3,2;2,1;3,1;1: 3 groups joined by 2 global links per pair, 2 chassis per group, 3
// routers per chassis, 1 node per router. Router (g, c, b) and its node are (g * 2 + c) * 3 + b.
const Dragonfly kDf = Dragonfly::parse("3,2;2,1;3,1;1");

TEST(Dragonfly, NumberingAndChannels) {
  EXPECT_EQ(kDf.num_nodes(), 18);
  EXPECT_EQ(kDf.num_routers(), 18);
  EXPECT_EQ(kDf.router_index(2, 1, 2), 17);
  const Dragonfly::Router r = kDf.router(9);
  EXPECT_EQ(r.group, 1);
  EXPECT_EQ(r.chassis, 1);
  EXPECT_EQ(r.blade, 0);
  // 2 x 18 local, 18 x 2 green, 18 x 1 black, and 3 x 2 global channels (one each way per pair).
  EXPECT_EQ(kDf.num_channels(), 36 + 36 + 18 + 6);
  // Global links have capacity 2 (SimGrid joins parallel links into one), the others 1.
  EXPECT_EQ(kDf.total_capacity(), 36 + 36 + 18 + 6 * 2.0);
  EXPECT_EQ(kDf.capacity(kDf.blue(2)), 2);
  EXPECT_EQ(kDf.capacity(kDf.green(0, 1)), 1);
  EXPECT_EQ(kDf.max_node_capacity(), 1);
  // Holes: no green link to one's own blade, no black to one's own chassis, global links only at
  // chassis 0, blade j != g of group g.
  EXPECT_FALSE(kDf.has_channel(kDf.green(4, 1)));
  EXPECT_FALSE(kDf.has_channel(kDf.black(4, 1)));
  EXPECT_TRUE(kDf.has_channel(kDf.blue(2)));
  EXPECT_FALSE(kDf.has_channel(kDf.blue(0)));
  EXPECT_FALSE(kDf.has_channel(kDf.blue(3)));
  EXPECT_EQ(kDf.channel_name(kDf.blue(2)), "blue router 2->router 12");
  EXPECT_EQ(kDf.channel_name(kDf.black(4, 0)), "black router 4->router 1");
  EXPECT_EQ(kDf.channel_name(kDf.router_to_node(7)), "local router 7->node 7");
}

TEST(Dragonfly, HopsCountTheShortestPath) {
  // (0,1,0) -> (2,1,2): green to blade 2, black to chassis 0, global to group 2 at (2,0,0), green
  // to blade 2, black to chassis 1, plus the two links of the nodes.
  EXPECT_EQ(kDf.hops(3, 17), 7);
  EXPECT_EQ(kDf.hops(2, 12), 3);  // (0,0,2) and (2,0,0) hold the global link between their groups
  EXPECT_EQ(kDf.hops(3, 1), 4);   // same group, chassis and blade differ
  EXPECT_EQ(kDf.hops(0, 1), 3);   // same chassis
  EXPECT_EQ(kDf.hops(5, 5), 0);
  EXPECT_EQ(kDf.diameter(), 7);
  EXPECT_EQ(kDf.min_hops(), 3);  // one node per router
  EXPECT_EQ(Dragonfly::parse("3,1;2,1;4,1;2").min_hops(), 2);
  EXPECT_EQ(kDf.level_size(2), 3);
  EXPECT_EQ(kDf.level_size(3), 6);
}

TEST(Dragonfly, MinimalIsSimGridsRoute) {
  const Network n = kDf;
  EXPECT_EQ(path_of(n, 3, 17),
            (std::vector<std::string>{"local node 3->router 3", "green router 3->router 5", "black router 5->router 2",
                                      "blue router 2->router 12", "green router 12->router 14",
                                      "black router 14->router 17", "local router 17->node 17"}));
  // Within a group, from chassis 1 to another blade of chassis 0: SimGrid takes the green link,
  // then believes itself at (0,0,1), where the destination router is, so it takes no black link.
  EXPECT_EQ(path_of(n, 3, 1),
            (std::vector<std::string>{"local node 3->router 3", "green router 3->router 4", "local router 1->node 1"}));
  // ... and to chassis 1 from chassis 1 the black link it takes leaves chassis 0.
  const Network two = Dragonfly::parse("1,1;3,1;2,1;1");
  EXPECT_EQ(path_of(two, 2, 5),
            (std::vector<std::string>{"local node 2->router 2", "green router 2->router 3", "black router 1->router 5",
                                      "local router 5->node 5"}));
}

TEST(Dragonfly, AdaptiveSplitsWhereBladeAndChassisBothChange) {
  const Network n = kDf;
  const std::map<std::string, double> expected = {
      {"local node 3->router 3", 1},      {"green router 3->router 5", 0.5},  {"black router 5->router 2", 0.5},
      {"black router 3->router 0", 0.5},  {"green router 0->router 2", 0.5},  {"blue router 2->router 12", 1},
      {"green router 12->router 14", 0.5}, {"black router 14->router 17", 0.5}, {"black router 12->router 15", 0.5},
      {"green router 15->router 17", 0.5}, {"local router 17->node 17", 1}};
  EXPECT_EQ(route_of(n, "adaptive", 3, 17), expected);
}

TEST(Dragonfly, ValiantAveragesOverTheIntermediateGroups) {
  // 3 groups: from group 0 to group 2 the only intermediate group is 1.
  const Network n = kDf;
  const std::map<std::string, double> expected = {
      {"local node 3->router 3", 1},      {"green router 3->router 4", 1},    {"black router 4->router 1", 1},
      {"blue router 1->router 6", 1},     {"green router 6->router 8", 1},    {"blue router 8->router 13", 1},
      {"green router 13->router 14", 1},  {"black router 14->router 17", 1},  {"local router 17->node 17", 1}};
  EXPECT_EQ(route_of(n, "valiant", 3, 17), expected);
  // 4 groups (dragonfly:4,1;1,1;4,1;1, router b of group g is node 4 g + b): from group 0 to 3,
  // half through group 1, half through group 2; both halves leave router 0 and enter router 15.
  const Network four = Dragonfly::parse("4,1;1,1;4,1;1");
  const auto shares = route_of(four, "valiant", 0, 15);
  EXPECT_DOUBLE_EQ(shares.at("blue router 1->router 4"), 0.5);
  EXPECT_DOUBLE_EQ(shares.at("blue router 2->router 8"), 0.5);
  EXPECT_DOUBLE_EQ(shares.at("green router 0->router 1"), 0.5);
  EXPECT_DOUBLE_EQ(shares.at("green router 13->router 15"), 0.5);
  EXPECT_DOUBLE_EQ(shares.at("green router 14->router 15"), 0.5);
  EXPECT_EQ(shares.count("blue router 3->router 12"), 0u);  // the direct global link is not used
  // Within a group Valiant is minimal.
  EXPECT_EQ(route_of(four, "valiant", 0, 2), route_of(four, "minimal", 0, 2));
}

TEST(Dragonfly, GlobalLinksLoadByTheirCapacity) {
  const Network n = kDf;
  const auto model = make_routing_model(n, "minimal");
  std::vector<double> loads(static_cast<std::size_t>(n.num_channel_slots()), 0.0);
  model->add_flow(3, 17, 10.0, loads);
  EXPECT_DOUBLE_EQ(loads[kDf.blue(2)], 5.0);  // 10 bytes over 2 links
  EXPECT_DOUBLE_EQ(loads[kDf.green(3, 2)], 10.0);
  EXPECT_DOUBLE_EQ(metrics::max_channel_load(loads), 10.0);
}

}  // namespace
}  // namespace rankmap::topology
