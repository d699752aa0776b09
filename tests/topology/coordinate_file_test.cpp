// Coordinate files: parsing, round trips, the allocation they describe, and every error message.
#include <rankmap/topology/coordinate_file.hpp>

#include "input_errors.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace rankmap::topology {
namespace {

using ::testing::HasSubstr;

CoordinateFile parse(const std::string& text) { return testing::parse_text(parse_coordinate_file, text, "coords.txt"); }

std::string error_of(const std::string& text) {
  return testing::input_error_of([&] { parse(text); });
}

constexpr const char* kSmall =
    "# a 2x3 machine, dimension 1 wraps\n"
    "grid 2x3 torus=01   # trailing comment\n"
    "\n"
    "node b 1 2\n"
    "  node a 0 0 slots=4\n";

TEST(CoordinateFile, ParsesGridNodesSlotsAndLineNumbers) {
  const CoordinateFile f = parse(kSmall);
  EXPECT_EQ(f.grid, Grid::parse("grid:2x3:torus=01"));
  ASSERT_EQ(f.nodes.size(), 2u);
  EXPECT_EQ(f.nodes[0].host, "b");
  EXPECT_EQ(f.nodes[0].coords[0], 1);
  EXPECT_EQ(f.nodes[0].coords[1], 2);
  EXPECT_EQ(f.nodes[0].slots, 0);
  EXPECT_EQ(f.nodes[0].line, 4);
  EXPECT_EQ(f.nodes[1].host, "a");
  EXPECT_EQ(f.nodes[1].slots, 4);
  EXPECT_EQ(f.nodes[1].line, 5);
}

TEST(CoordinateFile, FindHost) {
  const CoordinateFile f = parse(kSmall);
  ASSERT_NE(find_host(f, "a"), nullptr);
  EXPECT_EQ(find_host(f, "a")->line, 5);
  EXPECT_EQ(find_host(f, "c"), nullptr);
}

TEST(CoordinateFile, AllocationUsesSlotsOrPpnInFileOrder) {
  const CoordinateFile f = parse(kSmall);
  // b = (1,2) is node 1*3+2 = 5 with ppn 2 slots; a = (0,0) is node 0 with its own 4 slots.
  const Allocation alloc = allocation_of(f, 2);
  EXPECT_EQ(alloc.nodes_of_slots(), (std::vector<NodeId>{5, 5, 0, 0, 0, 0}));
  EXPECT_EQ(alloc.num_nodes(), 2);
  EXPECT_EQ(alloc.max_ppn(), 4);
}

TEST(CoordinateFile, AllocationNeedsPpnWhenSlotsAreMissing) {
  EXPECT_THROW(allocation_of(parse(kSmall), 0), InputError);
  EXPECT_THROW(allocation_of(parse("grid 2 torus=0\n"), 1), InputError);
}

TEST(CoordinateFile, WriteThenReadGivesTheSameFile) {
  const CoordinateFile f = parse(kSmall);
  std::ostringstream out;
  write_coordinate_file(out, f);
  EXPECT_EQ(out.str(), "grid 2x3 torus=01\nnode b 1 2\nnode a 0 0 slots=4\n");
  std::istringstream in(out.str());
  const CoordinateFile back = parse_coordinate_file(in, "again");
  EXPECT_EQ(back.grid, f.grid);
  ASSERT_EQ(back.nodes.size(), 2u);
  EXPECT_EQ(back.nodes[1].coords, f.nodes[1].coords);
  EXPECT_EQ(back.nodes[1].slots, 4);
}

TEST(CoordinateFileErrors, MissingGridLine) {
  EXPECT_EQ(error_of("# nothing\n"), "coords.txt: no 'grid' line");
  EXPECT_EQ(error_of("node a 0\n"), "coords.txt:1: a 'node' line before the 'grid' line");
}

TEST(CoordinateFileErrors, MalformedOrRepeatedGridLine) {
  EXPECT_THAT(error_of("grid 4x4\n"), HasSubstr("coords.txt:1: expected 'grid <extents> torus="));
  EXPECT_THAT(error_of("grid 4x0 torus=11\n"), HasSubstr("coords.txt:1: grid extents"));
  EXPECT_THAT(error_of("grid 4x4 torus=1\n"), HasSubstr("coords.txt:1: torus= needs one 0/1 flag per dimension (2)"));
  EXPECT_THAT(error_of("grid 4 torus=1\ngrid 4 torus=1\n"),
              HasSubstr("coords.txt:2: a second 'grid' line (the first is line 1)"));
}

TEST(CoordinateFileErrors, WrongArity) {
  EXPECT_EQ(error_of("grid 4x4 torus=11\nnode a 1\n"),
            "coords.txt:2: expected 'node <host>' and 2 coordinates, found 1 coordinates");
  EXPECT_THAT(error_of("grid 4x4 torus=11\nnode a 1 2 3\n"), HasSubstr("found 3 coordinates"));
  EXPECT_THAT(error_of("grid 4x4 torus=11\nnode\n"), HasSubstr("coords.txt:2: expected 'node <host>'"));
}

TEST(CoordinateFileErrors, CoordinateOutOfRangeOrNotANumber) {
  EXPECT_EQ(error_of("grid 4x4 torus=11\nnode a 1 4\n"),
            "coords.txt:2: coordinate 1 of host 'a' is '4', outside 0..3");
  EXPECT_THAT(error_of("grid 4x4 torus=11\nnode a -1 0\n"), HasSubstr("coordinate 0 of host 'a' is '-1'"));
  EXPECT_THAT(error_of("grid 4x4 torus=11\nnode a 1x 0\n"), HasSubstr("is '1x'"));
}

TEST(CoordinateFileErrors, DuplicateHostOrNode) {
  EXPECT_EQ(error_of("grid 4x4 torus=11\nnode a 0 0\nnode a 0 1\n"),
            "coords.txt:3: host 'a' is listed again (first on line 2)");
  EXPECT_EQ(error_of("grid 4x4 torus=11\nnode a 0 0\n# gap\nnode b 0 0\n"),
            "coords.txt:4: host 'b' has the same coordinates as the host on line 2");
}

TEST(CoordinateFileErrors, BadSlotsAndUnknownKeyword) {
  EXPECT_THAT(error_of("grid 4 torus=1\nnode a 0 slots=0\n"), HasSubstr("coords.txt:2: 'slots=0': slots must be"));
  EXPECT_THAT(error_of("grid 4 torus=1\nnode a 0 slots=x\n"), HasSubstr("'slots=x'"));
  EXPECT_EQ(error_of("grid 4 torus=1\nhost a 0\n"), "coords.txt:2: unknown keyword 'host'; expected 'grid' or 'node'");
}

TEST(CoordinateFileErrors, UnreadableFileIsNamed) {
  EXPECT_THROW(
      {
        try {
          read_coordinate_file("/nonexistent/coords.txt");
        } catch (const InputError& e) {
          EXPECT_STREQ(e.what(), "/nonexistent/coords.txt: cannot open the coordinate file");
          throw;
        }
      },
      InputError);
}

}  // namespace
}  // namespace rankmap::topology
