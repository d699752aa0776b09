// METIS graph files: the manual's example, edge weights, skipped vertex data, and malformed input.
#include <rankmap/graph/metis_format.hpp>

#include "input_errors.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>


namespace rankmap::graph {
namespace {

using ::testing::HasSubstr;

CommGraph parse(const std::string& text) { return testing::parse_text(parse_metis, text, "g.graph"); }

std::string error_of(const std::string& text) {
  return testing::input_error_of([&] { parse(text); });
}

TEST(Metis, ReadsTheManualsUnweightedExample) {
  // The 7-vertex, 11-edge graph of the METIS manual (figure 2a).
  const auto g = parse(
      "% the METIS manual's example\n"
      "7 11\n"
      "5 3 2\n"
      "1 3 4\n"
      "5 4 2 1\n"
      "2 3 6 7\n"
      "1 3 6\n"
      "5 4 7\n"
      "6 4\n");
  EXPECT_EQ(g.num_tasks(), 7);
  EXPECT_EQ(g.num_edges(), 22);
  EXPECT_DOUBLE_EQ(g.total_weight(), 22.0);
  ASSERT_EQ(g.out_degree(0), 3);  // vertex 1 lists 5 3 2
  EXPECT_EQ(g.out_neighbors(0)[0], 1);
  EXPECT_EQ(g.out_neighbors(0)[1], 2);
  EXPECT_EQ(g.out_neighbors(0)[2], 4);
  EXPECT_EQ(g.canonical_hash(), g.transposed().canonical_hash());
}

TEST(Metis, EdgeWeightsGoBothWays) {
  const auto g = parse("3 2 1\n2 5\n1 5 3 7\n2 7\n");
  const auto e = g.edges();
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].src, 0);
  EXPECT_EQ(e[0].dst, 1);
  EXPECT_EQ(e[0].weight, 5.0);
  EXPECT_EQ(e[1].src, 1);
  EXPECT_EQ(e[1].dst, 0);
  EXPECT_EQ(e[1].weight, 5.0);
  EXPECT_EQ(e[3].src, 2);
  EXPECT_EQ(e[3].dst, 1);
  EXPECT_EQ(e[3].weight, 7.0);
}

TEST(Metis, VertexSizesAndWeightsAreSkipped) {
  // fmt 111 with ncon 2: each line is size, two weights, then (neighbour, weight) pairs.
  const auto g = parse("2 1 111 2\n9 4 4 2 3\n9 1 1 1 3\n");
  ASSERT_EQ(g.num_edges(), 2);
  EXPECT_DOUBLE_EQ(g.total_weight(), 6.0);
}

TEST(Metis, BlankLineIsAnIsolatedVertexButCommentsAreNot) {
  const auto g = parse("3 1\n2\n% comment between vertices\n1\n\n");
  EXPECT_EQ(g.num_tasks(), 3);
  EXPECT_EQ(g.num_edges(), 2);
  EXPECT_EQ(g.out_degree(2), 0);
}

TEST(Metis, MalformedInputsNameFileAndLine) {
  EXPECT_THAT(error_of(""), HasSubstr("g.graph: empty file"));
  EXPECT_THAT(error_of("3\n"), HasSubstr("g.graph:1: header: expected 'vertices edges"));
  EXPECT_THAT(error_of("3 x\n"), HasSubstr("g.graph:1: header: edge count 'x'"));
  EXPECT_THAT(error_of("3 1 2\n"), HasSubstr("g.graph:1: header: fmt '2'"));
  EXPECT_THAT(error_of("3 1 10 0\n"), HasSubstr("g.graph:1: header: ncon '0'"));
  EXPECT_THAT(error_of("999999999999 1\n"), HasSubstr("g.graph:1: header: 999999999999 vertices is more than"));
  EXPECT_THAT(error_of("3 1\n2\n1\n"), HasSubstr("g.graph: the header declares 3 vertices but the file has 2"));
  EXPECT_THAT(error_of("2 1\n2\n1\n1\n"), HasSubstr("g.graph:4: more vertex lines than the 2"));
  EXPECT_THAT(error_of("2 1\n3\n1\n"), HasSubstr("g.graph:2: neighbour 3 is outside 1..2"));
  EXPECT_THAT(error_of("2 1\n1\n1\n"), HasSubstr("g.graph:2: vertex 1 lists itself"));
  EXPECT_THAT(error_of("3 2\n2 2\n1\n\n"), HasSubstr("g.graph:2: vertex 1 lists neighbour 2 twice"));
  EXPECT_THAT(error_of("2 1 1\n2\n1 1\n"), HasSubstr("g.graph:2: neighbour 2 has no edge weight"));
  EXPECT_THAT(error_of("2 1 1\n2 -1\n1 1\n"), HasSubstr("g.graph:2: edge weight '-1'"));
  EXPECT_THAT(error_of("2 1 10\n\n5 1\n"), HasSubstr("g.graph:2: vertex 1 needs its size and weights"));
  EXPECT_THAT(error_of("2 2\n2\n1\n"), HasSubstr("declares 2 edges, so 4 neighbour entries, but the file lists 2"));
  EXPECT_THAT(error_of("3 1\n2\n\n1\n"), HasSubstr("line 2: vertex 1 lists neighbour 2 but line 3 (vertex 2)"));
  EXPECT_THAT(error_of("2 1 1\n2 3\n1 4\n"), HasSubstr("does not list it back with the same weight"));
}

}  // namespace
}  // namespace rankmap::graph
