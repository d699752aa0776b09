// Allocation files: network allocation files, either kind told apart, round trips, and every error.
#include <rankmap/topology/allocation_file.hpp>

#include "input_errors.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace rankmap::topology {
namespace {

using ::testing::HasSubstr;

AllocationFile parse(const std::string& text) { return testing::parse_text(parse_allocation_file, text, "alloc.txt"); }

std::string error_of(const std::string& text) {
  return testing::input_error_of([&] { parse(text); });
}

constexpr const char* kTree =
    "# four nodes of a fat-tree\n"
    "network fattree:2;4,4;1,2;1,2   # 16 nodes\n"
    "\n"
    "node n5 5\n"
    "  node n12 12 slots=4\n";

TEST(AllocationFile, ReadsANetworkFile) {
  const AllocationFile f = parse(kTree);
  EXPECT_EQ(f.network.to_string(), "fattree:2;4,4;1,2;1,2");
  ASSERT_EQ(f.nodes.size(), 2u);
  EXPECT_EQ(f.nodes[0].host, "n5");
  EXPECT_EQ(f.nodes[0].node, 5);
  EXPECT_EQ(f.nodes[0].slots, 0);
  EXPECT_EQ(f.nodes[0].line, 4);
  EXPECT_EQ(f.nodes[1].slots, 4);
  const Allocation a = allocation_of(f, 2);
  EXPECT_EQ(a.nodes_of_slots(), (std::vector<NodeId>{5, 5, 12, 12, 12, 12}));
  EXPECT_EQ(a.network(), f.network);
  EXPECT_THROW(allocation_of(f, 0), InputError);
  EXPECT_THAT(testing::input_error_of([] { allocation_of(parse("network dragonfly:1,1;1,1;2,1;1\n"), 1); }),
              HasSubstr("lists no nodes"));
}

TEST(AllocationFile, ReadsACoordinateFileToo) {
  const AllocationFile f = parse("# a torus\ngrid 2x3 torus=11\nnode a 1 2 slots=2\nnode b 0 1\n");
  EXPECT_EQ(f.network.to_string(), "torus:2x3");
  ASSERT_EQ(f.nodes.size(), 2u);
  EXPECT_EQ(f.nodes[0].node, 5);  // (1,2) row-major
  EXPECT_EQ(f.nodes[1].node, 1);
  EXPECT_EQ(allocation_of(f, 1).nodes_of_slots(), (std::vector<NodeId>{5, 5, 1}));
  EXPECT_THAT(error_of("grid 2x3 torus=11\nnode a 1 3\n"), HasSubstr("alloc.txt:2: coordinate 1"));
}

TEST(AllocationFile, WritesWhatItReads) {
  for (const char* text : {kTree, "grid 2x3 torus=01\nnode a 1 2 slots=2\nnode b 0 0\n",
                           "network dragonfly:3,1;2,1;4,1;2\nnode x 47\nnode y 0 slots=1\n"}) {
    const AllocationFile f = parse(text);
    std::stringstream out;
    write_allocation_file(out, f);
    const AllocationFile back = parse_allocation_file(out, "again");
    EXPECT_EQ(back.network, f.network);
    ASSERT_EQ(back.nodes.size(), f.nodes.size());
    for (std::size_t i = 0; i < f.nodes.size(); ++i) {
      EXPECT_EQ(back.nodes[i].host, f.nodes[i].host);
      EXPECT_EQ(back.nodes[i].node, f.nodes[i].node);
      EXPECT_EQ(back.nodes[i].slots, f.nodes[i].slots);
    }
  }
}

TEST(AllocationFile, ErrorsNameTheFileAndTheLine) {
  EXPECT_EQ(error_of("# nothing\n"), "alloc.txt: no 'network' line");
  EXPECT_EQ(error_of("node a 1\n"), "alloc.txt:1: a 'node' line before the 'network' line");
  EXPECT_EQ(error_of("network\n"),
            "alloc.txt:1: expected 'network SPEC', e.g. 'network fattree:2;4,4;1,2;1,2' or 'network "
            "dragonfly:3,1;2,1;4,1;2'");
  EXPECT_THAT(error_of("network fattree:2;4,4;1,2;1,2 extra\n"), HasSubstr("alloc.txt:1: expected 'network SPEC'"));
  EXPECT_THAT(error_of("network fattree:2;4,4;1,2;1,2\nnetwork fattree:2;4,4;1,2;1,2\n"),
              HasSubstr("alloc.txt:2: a second 'network' line (the first is line 1)"));
  EXPECT_THAT(error_of("\nnetwork fattree:2;4,4;1,2\n"), HasSubstr("alloc.txt:2: topology 'fattree:2;4,4;1,2'"));
  EXPECT_THAT(error_of("network torus:4x4\n"),
              HasSubstr("alloc.txt:1: torus:4x4 is a torus or mesh: its allocation is a coordinate file"));
  EXPECT_THAT(error_of("network dragonfly:3,1;2,1;4,1;2\nnode a\n"),
              HasSubstr("alloc.txt:2: expected 'node HOST INDEX' or 'node HOST INDEX slots=N'"));
  EXPECT_THAT(error_of("network dragonfly:3,1;2,1;4,1;2\nnode a 1 2\n"), HasSubstr("alloc.txt:2: expected 'node HOST"));
  EXPECT_THAT(error_of("network dragonfly:3,1;2,1;4,1;2\nnode a 1 slots=2 x\n"), HasSubstr("alloc.txt:2: expected"));
  EXPECT_EQ(error_of("network dragonfly:3,1;2,1;4,1;2\nnode a 48\n"),
            "alloc.txt:2: index '48' of host 'a' is outside 0..47 of dragonfly:3,1;2,1;4,1;2");
  EXPECT_THAT(error_of("network dragonfly:3,1;2,1;4,1;2\nnode a -1\n"), HasSubstr("index '-1'"));
  EXPECT_THAT(error_of("network dragonfly:3,1;2,1;4,1;2\nnode a 1x\n"), HasSubstr("index '1x'"));
  EXPECT_THAT(error_of("network dragonfly:3,1;2,1;4,1;2\nnode a 1 slots=0\n"),
              HasSubstr("alloc.txt:2: 'slots=0': slots must be an integer from 1 to 65536"));
  EXPECT_THAT(error_of("network dragonfly:3,1;2,1;4,1;2\nnode a 1\nnode a 2\n"),
              HasSubstr("alloc.txt:3: host 'a' is listed again (first on line 2)"));
  EXPECT_THAT(error_of("network dragonfly:3,1;2,1;4,1;2\nnode a 1\nnode b 1\n"),
              HasSubstr("alloc.txt:3: host 'b' has the same index as the host on line 2"));
  EXPECT_THAT(error_of("network dragonfly:3,1;2,1;4,1;2\nhost a 1\n"),
              HasSubstr("alloc.txt:2: unknown keyword 'host'; expected 'network' or 'node'"));
}

TEST(AllocationFile, UnreadableFileIsNamed) {
  EXPECT_THAT(testing::input_error_of([] { read_allocation_file("/nonexistent/alloc.txt"); }),
              HasSubstr("/nonexistent/alloc.txt"));
}

}  // namespace
}  // namespace rankmap::topology
