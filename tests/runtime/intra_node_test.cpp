// Concentration onto nodes, socket order within nodes, and the decision with its do-no-harm rule.
#include "decide.hpp"
#include "intra_node.hpp"
#include "report.hpp"

#include <gtest/gtest.h>

namespace rankmap::runtime {
namespace {

/// Heavy pairs (0,2) and (1,3), 10 bytes each way, and a light 1-byte edge 0->1.
graph::CommGraph crossed_pairs() {
  return graph::CommGraph::from_edges(4, {{0, 2, 10}, {2, 0, 10}, {1, 3, 10}, {3, 1, 10}, {0, 1, 1}});
}

TEST(IntraNode, OffNodeBytesCountsEdgesBetweenNodes) {
  const topology::Allocation alloc(topology::Grid::parse("mesh:2"), {0, 0, 1, 1});
  const graph::CommGraph g = crossed_pairs();
  // Identity: 0,1 on node 0 and 2,3 on node 1, so both heavy pairs cross: 4 x 10 bytes.
  EXPECT_EQ(off_node_bytes(g, alloc, mapping::identity_mapping(4)), 40);
  // Tasks 0,2 on node 0 and 1,3 on node 1: only the 1-byte edge 0->1 crosses.
  EXPECT_EQ(off_node_bytes(g, alloc, std::vector<SlotId>{0, 2, 1, 3}), 1);
}

TEST(IntraNode, ConcentrationKeepsHeavyPairsOnOneNode) {
  const topology::Allocation alloc(topology::Grid::parse("mesh:2"), {0, 0, 1, 1});
  const mapping::Mapping m = concentrate_on_nodes(crossed_pairs(), alloc);
  // Node 0 is seeded with task 0 (the task on its first slot), which pulls in task 2; node 1 gets 1 and 3.
  EXPECT_EQ(m, (mapping::Mapping{0, 2, 1, 3}));
}

TEST(IntraNode, SocketsGetTheTasksThatTalkMost) {
  // One node, four slots: slots 0,1 on socket 0 and slots 2,3 on socket 1.
  const topology::Allocation alloc(topology::Grid::parse("mesh:1"), {0, 0, 0, 0});
  mapping::Mapping m = mapping::identity_mapping(4);
  order_within_sockets(crossed_pairs(), alloc, std::vector<int>{0, 0, 1, 1}, m);
  EXPECT_EQ(m, (mapping::Mapping{0, 2, 1, 3}));
  mapping::Mapping unknown = mapping::identity_mapping(4);
  order_within_sockets(crossed_pairs(), alloc, std::vector<int>{-1, -1, -1, -1}, unknown);
  EXPECT_EQ(unknown, mapping::identity_mapping(4));
}

Config config_with(std::string algorithm, double min_gain = 0.02) {
  Config c;
  c.algorithm = std::move(algorithm);
  c.min_gain = min_gain;
  return c;
}

TEST(Decide, NodesOnlyConcentratesAndReportsOffNodeBytes) {
  const Placement p{Placement::Mode::nodes_only, topology::Allocation(topology::Grid::parse("mesh:2"), {0, 0, 1, 1}),
                    {-1, -1, -1, -1}};
  const Decision d = decide(crossed_pairs(), p, config_with("auto"));
  EXPECT_TRUE(d.applied);
  EXPECT_EQ(d.algorithm, "concentrate");
  EXPECT_EQ(d.objective, "offnode");
  EXPECT_EQ(d.before, 40);
  EXPECT_EQ(d.after, 1);
  EXPECT_EQ(d.slot_of, (mapping::Mapping{0, 2, 1, 3}));
}

TEST(Decide, TheIdentityIsNeverApplied) {
  const Placement p{Placement::Mode::network, topology::Allocation(topology::Grid::parse("torus:4"), {0, 1, 2, 3}),
                    {-1, -1, -1, -1}};
  const Decision d = decide(crossed_pairs(), p, config_with("identity"));
  EXPECT_FALSE(d.applied);
  EXPECT_EQ(d.objective, "mcl");
  EXPECT_EQ(d.before, d.after);
  EXPECT_EQ(d.note, "the candidate is the identity");
  EXPECT_EQ(d.slot_of, mapping::identity_mapping(4));
}

TEST(Decide, MinGainHoldsBackSmallImprovements) {
  const Placement p{Placement::Mode::nodes_only, topology::Allocation(topology::Grid::parse("mesh:2"), {0, 0, 1, 1}),
                    {-1, -1, -1, -1}};
  // 40 -> 1 bytes is a 97.5% gain: refused only when at least 98% is required.
  EXPECT_FALSE(decide(crossed_pairs(), p, config_with("auto", 0.98)).applied);
  EXPECT_TRUE(decide(crossed_pairs(), p, config_with("auto", 0.97)).applied);
}

TEST(Report, LineCarriesEveryFigure) {
  Decision d;
  d.algorithm = "mahd+refine";
  d.objective = "mcl";
  d.before = 8;
  d.after = 2;
  d.seconds = 0.0125;
  d.applied = true;
  EXPECT_EQ(format_report_line("MPI_Cart_create", 16, d),
            "rankmap: MPI_Cart_create tasks=16 algorithm=mahd+refine objective=mcl before=8 after=2 gain=0.75 "
            "time_ms=12.5 applied=yes");
  Decision fallback;
  fallback.note = "no placement";
  EXPECT_EQ(format_report_line("MPI_Graph_create", 4, fallback),
            "rankmap: MPI_Graph_create tasks=4 algorithm=none time_ms=0 applied=no note=\"no placement\"");
}

}  // namespace
}  // namespace rankmap::runtime
