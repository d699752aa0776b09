// The versioned mapping file: every field, any line order, round trips, and matching the job it was made for.
#include <rankmap/hash.hpp>
#include <rankmap/mapping/mapping_file.hpp>

#include "factories.hpp"

#include "input_errors.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include "temp_path.hpp"

namespace rankmap::mapping {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

MappingFile parse(const std::string& text) { return testing::parse_text(parse_mapping_file, text, "m.map"); }

std::string error_of(const std::string& text) {
  return testing::input_error_of([&] { parse(text); });
}

const std::string kHeader =
    "rankmap-mapping 1\n"
    "tasks 3\n"
    "graph 0123456789abcdef\n"
    "allocation fedcba9876543210\n"
    "algorithm mahd+refine 12.5\n";

TEST(MappingFile, ReadsEveryField) {
  const auto f = parse(kHeader + "0 2\n1 0\n2 1\n");
  EXPECT_EQ(f.tasks, 3);
  EXPECT_EQ(f.graph_hash, 0x0123456789abcdefULL);
  EXPECT_EQ(f.allocation_hash, 0xfedcba9876543210ULL);
  EXPECT_EQ(f.algorithm, "mahd+refine");
  ASSERT_TRUE(f.objective.has_value());
  EXPECT_EQ(*f.objective, 12.5);
  EXPECT_THAT(f.slot_of, ElementsAre(2, 0, 1));
}

TEST(MappingFile, AnyLineOrderCommentsAndNoObjective) {
  const auto f = parse(
      "# written by hand\n"
      "rankmap-mapping 1   # version\n"
      "tasks 3\n\n"
      "graph 0123456789ABCDEF\n"
      "allocation fedcba9876543210\n"
      "algorithm identity\n"
      "2 1\n"
      "0 0   # task 0 stays\n"
      "1 2\n");
  EXPECT_FALSE(f.objective.has_value());
  EXPECT_EQ(f.graph_hash, 0x0123456789abcdefULL);
  EXPECT_THAT(f.slot_of, ElementsAre(0, 2, 1));
}

TEST(MappingFile, RoundTrip) {
  MappingFile f;
  f.tasks = 64;
  f.graph_hash = 0x8000000000000001ULL;
  f.allocation_hash = 42;
  f.algorithm = "rahtm";
  f.objective = 1.0 / 3;
  f.slot_of = testing::random_permutation(64, 9);
  std::ostringstream out;
  write_mapping_file(out, f);
  EXPECT_THAT(out.str(), HasSubstr("graph 8000000000000001\nallocation 000000000000002a\n"));
  std::istringstream in(out.str());
  const auto back = parse_mapping_file(in, "rt.map");
  EXPECT_EQ(back.tasks, f.tasks);
  EXPECT_EQ(back.graph_hash, f.graph_hash);
  EXPECT_EQ(back.allocation_hash, f.allocation_hash);
  EXPECT_EQ(back.algorithm, f.algorithm);
  EXPECT_EQ(back.objective, f.objective);
  EXPECT_EQ(back.slot_of, f.slot_of);
}

TEST(MappingFile, WriterRefusesInconsistentRecords) {
  MappingFile f;
  f.tasks = 2;
  f.algorithm = "x";
  f.slot_of = {1, 1};
  std::ostringstream out;
  EXPECT_THROW(write_mapping_file(out, f), InputError);
  f.slot_of = {1, 0};
  f.algorithm = "two words";
  EXPECT_THROW(write_mapping_file(out, f), InputError);
  f.algorithm = "";
  EXPECT_THROW(write_mapping_file(out, f), InputError);
}

TEST(MappingFile, MalformedInputsNameFileAndLine) {
  const std::string body = "0 2\n1 0\n2 1\n";
  EXPECT_THAT(error_of(""), HasSubstr("m.map: empty file"));
  EXPECT_THAT(error_of("rankmap-map 1\n"), HasSubstr("m.map:1: not a rankmap mapping file"));
  EXPECT_THAT(error_of("rankmap-mapping 2\n"), HasSubstr("m.map:1: mapping file version '2' is not supported"));
  EXPECT_THAT(error_of("rankmap-mapping 1 x\n"), HasSubstr("m.map:1: unexpected text"));
  EXPECT_THAT(error_of("rankmap-mapping 1\ngraph 0123456789abcdef\n"), HasSubstr("m.map:2: expected 'tasks <P>', found 'graph'"));
  EXPECT_THAT(error_of("rankmap-mapping 1\ntasks 0\n"), HasSubstr("m.map:2: task count '0' must be 1.."));
  EXPECT_THAT(error_of("rankmap-mapping 1\ntasks 99999999999\n"), HasSubstr("m.map:2: task count"));
  EXPECT_THAT(error_of("rankmap-mapping 1\ntasks 3\ngraph 123\n"), HasSubstr("m.map:3: graph hash '123' is not 16 hex digits"));
  EXPECT_THAT(error_of("rankmap-mapping 1\ntasks 3\ngraph 0123456789abcdeg\n"), HasSubstr("m.map:3: graph hash"));
  EXPECT_THAT(error_of("rankmap-mapping 1\ntasks 3\ngraph 0123456789abcdef\n"), HasSubstr("m.map: the file ends before the 'allocation"));
  EXPECT_THAT(error_of("rankmap-mapping 1\ntasks 3\ngraph 0123456789abcdef\nallocation 0123456789abcdef\nalgorithm\n"),
              HasSubstr("m.map:5: expected 'algorithm <name> [objective]'"));
  EXPECT_THAT(error_of("rankmap-mapping 1\ntasks 3\ngraph 0123456789abcdef\nallocation 0123456789abcdef\nalgorithm a inf\n"),
              HasSubstr("m.map:5: objective 'inf' is not a finite number"));
  EXPECT_THAT(error_of(kHeader + "0 2\n1 0\n"), HasSubstr("m.map: declares 3 tasks but has 2 task lines"));
  EXPECT_THAT(error_of(kHeader + body + "0 0\n"), HasSubstr("m.map:9: more task lines than the 3 tasks declared"));
  EXPECT_THAT(error_of(kHeader + "0 2\n1 0\n0 1\n"), HasSubstr("m.map:8: task 0 already has a slot on line 6"));
  EXPECT_THAT(error_of(kHeader + "0 2\n1 0\n2 2\n"), HasSubstr("m.map:8: slot 2 is already taken on line 6"));
  EXPECT_THAT(error_of(kHeader + "0 3\n"), HasSubstr("m.map:6: slot 3 is outside 0..2"));
  EXPECT_THAT(error_of(kHeader + "-1 0\n"), HasSubstr("m.map:6: task -1 is outside 0..2"));
  EXPECT_THAT(error_of(kHeader + "0\n"), HasSubstr("m.map:6: expected '<task> <slot>'"));
  EXPECT_THAT(error_of(kHeader + "0 1 2\n"), HasSubstr("m.map:6: unexpected text after '<task> <slot>'"));
  EXPECT_THAT(error_of(kHeader + "0 a\n"), HasSubstr("m.map:6: slot 'a' is not an integer"));
}

TEST(MappingFile, MatchesOnlyTheJobItWasComputedFor) {
  const auto graph = testing::grid_graph(2, 4);
  const auto grid = topology::Grid::parse("torus:2x2");
  const auto alloc = topology::Allocation::full(grid, 2);
  MappingFile f;
  f.tasks = 8;
  f.graph_hash = graph.canonical_hash();
  f.allocation_hash = alloc.hash();
  f.algorithm = "identity";
  f.slot_of = identity_mapping(8);
  EXPECT_NO_THROW(check_mapping_matches(f, graph, alloc, "m.map"));

  const auto error = [&](const graph::CommGraph& g, const topology::Allocation& a) {
    try {
      check_mapping_matches(f, g, a, "m.map");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_THAT(error(testing::grid_graph(2, 4, 2.0), alloc),
              HasSubstr("m.map: graph hash " + hash_to_hex(f.graph_hash) + " does not match the graph"));
  // The same nodes in another order are another allocation.
  const std::vector<NodeId> reordered = {1, 0, 2, 3};
  EXPECT_THAT(error(graph, topology::Allocation::of_nodes(grid, reordered, 2)),
              HasSubstr("m.map: allocation hash " + hash_to_hex(f.allocation_hash) + " does not match"));
  EXPECT_THAT(error(testing::grid_graph(2, 3), alloc.first_slots(6)),
              HasSubstr("m.map: the mapping has 8 tasks but the graph has 6"));
  EXPECT_THAT(error(graph, topology::Allocation::full(grid, 3)),
              HasSubstr("m.map: the mapping has 8 tasks but the allocation has 12 slots"));
}

TEST(MappingFile, FileRoundTripAndMissingFile) {
  MappingFile f;
  f.tasks = 2;
  f.algorithm = "identity";
  f.slot_of = {1, 0};
  const std::string path = rankmap::testing::unique_temp_path("rankmap_mapping_file_test") + ".map";
  write_mapping_file(path, f);
  EXPECT_EQ(read_mapping_file(path).slot_of, f.slot_of);
  EXPECT_THROW(read_mapping_file(path + ".missing"), InputError);
  EXPECT_THROW(write_mapping_file("/nonexistent/dir/x.map", f), InputError);
}

}  // namespace
}  // namespace rankmap::mapping
