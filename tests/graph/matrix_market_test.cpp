// Matrix Market graphs: every variant the reader accepts, round trips, and malformed input.
#include <rankmap/graph/matrix_market.hpp>

#include "factories.hpp"

#include "input_errors.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace rankmap::graph {
namespace {

using ::testing::HasSubstr;

CommGraph parse(const std::string& text) { return testing::parse_text(parse_matrix_market, text, "g.mtx"); }

std::string error_of(const std::string& text) {
  return testing::input_error_of([&] { parse(text); });
}

TEST(MatrixMarket, ReadsGeneralRealWithComments) {
  const auto g = parse(
      "%%MatrixMarket matrix coordinate real general\n"
      "% a comment\n"
      "\n"
      "3 3 3\n"
      "1 2 1.5\n"
      "2 3 +2\n"
      "3 1 4e2\n");
  ASSERT_EQ(g.num_tasks(), 3);
  const auto e = g.edges();
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].src, 0);
  EXPECT_EQ(e[0].dst, 1);
  EXPECT_EQ(e[0].weight, 1.5);
  EXPECT_EQ(e[1].src, 1);
  EXPECT_EQ(e[1].dst, 2);
  EXPECT_EQ(e[1].weight, 2.0);
  EXPECT_EQ(e[2].src, 2);
  EXPECT_EQ(e[2].dst, 0);
  EXPECT_EQ(e[2].weight, 400.0);
}

TEST(MatrixMarket, SymmetricMirrorsOffDiagonalEntriesOnly) {
  // (2,1,5) gives 1->0 and 0->1; the diagonal (3,3,7) stays a single self loop.
  const auto g = parse("%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n2 1 5\n3 3 7\n");
  const auto e = g.edges();
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].src, 0);
  EXPECT_EQ(e[0].dst, 1);
  EXPECT_EQ(e[0].weight, 5.0);
  EXPECT_EQ(e[1].src, 1);
  EXPECT_EQ(e[1].dst, 0);
  EXPECT_EQ(e[2].src, 2);
  EXPECT_EQ(e[2].dst, 2);
  EXPECT_DOUBLE_EQ(g.total_weight(), 17.0);
}

TEST(MatrixMarket, PatternEntriesWeighOneAndBannerIsCaseInsensitive) {
  const auto g = parse("%%matrixmarket MATRIX Coordinate Pattern General\n2 2 2\n1 2\n2 1\n");
  EXPECT_EQ(g.num_edges(), 2);
  EXPECT_DOUBLE_EQ(g.total_weight(), 2.0);
}

TEST(MatrixMarket, DuplicateEntriesAreSummed) {
  const auto g = parse("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n1 2 2.5\n");
  ASSERT_EQ(g.num_edges(), 1);
  EXPECT_DOUBLE_EQ(g.out_weights(0)[0], 3.5);
}

TEST(MatrixMarket, RoundTripKeepsTheCanonicalHash) {
  // Weights that %g with fewer digits would round: 1/3, 0.1, a subnormal, a large value.
  const auto g = CommGraph::from_edges(
      5, {{0, 1, 1.0 / 3}, {1, 0, 0.1}, {2, 4, 4.9e-320}, {4, 3, 1.7e300}, {3, 3, 0}, {2, 1, 12345678901234.5}});
  std::ostringstream out;
  write_matrix_market(out, g);
  std::istringstream in(out.str());
  const auto back = parse_matrix_market(in, "roundtrip.mtx");
  EXPECT_EQ(back.num_tasks(), 5);
  EXPECT_EQ(back.num_edges(), g.num_edges());
  EXPECT_EQ(back.canonical_hash(), g.canonical_hash());
}

TEST(MatrixMarket, RoundTripOfARandomGraph) {
  const auto g = testing::random_graph(200, 5, 7);
  std::ostringstream out;
  write_matrix_market(out, g);
  std::istringstream in(out.str());
  EXPECT_EQ(parse_matrix_market(in, "r.mtx").canonical_hash(), g.canonical_hash());
}

TEST(MatrixMarket, WriterUsesCoordinateRealGeneral) {
  std::ostringstream out;
  write_matrix_market(out, CommGraph::from_edges(2, {{1, 0, 2.5}}));
  EXPECT_EQ(out.str(),
            "%%MatrixMarket matrix coordinate real general\n"
            "% communication graph: entry (i, j, w) is w bytes sent from task i to task j\n"
            "2 2 1\n"
            "2 1 2.5\n");
}

TEST(MatrixMarket, MalformedInputsNameFileAndLine) {
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
  EXPECT_THAT(error_of(""), HasSubstr("g.mtx: empty file"));
  EXPECT_THAT(error_of("hello\n"), HasSubstr("g.mtx:1: expected the banner"));
  EXPECT_THAT(error_of("%%MatrixMarket matrix array real general\n"), HasSubstr("g.mtx:1: format 'array'"));
  EXPECT_THAT(error_of("%%MatrixMarket matrix coordinate complex general\n"), HasSubstr("g.mtx:1: field 'complex'"));
  EXPECT_THAT(error_of("%%MatrixMarket matrix coordinate real hermitian\n"), HasSubstr("g.mtx:1: symmetry"));
  EXPECT_THAT(error_of("%%MatrixMarket matrix coordinate real\n"), HasSubstr("g.mtx:1: the banner ends"));
  EXPECT_THAT(error_of(banner), HasSubstr("g.mtx: no size line"));
  EXPECT_THAT(error_of(banner + "% c\n3 4 1\n"), HasSubstr("g.mtx:3: the matrix is 3 x 4"));
  EXPECT_THAT(error_of(banner + "3 3\n"), HasSubstr("g.mtx:2: the size line needs"));
  EXPECT_THAT(error_of(banner + "3 -3 1\n"), HasSubstr("g.mtx:2: columns '-3' is not a count"));
  EXPECT_THAT(error_of(banner + "3 3 1\n0 1 1\n"), HasSubstr("g.mtx:3: row 0 is outside 1..3"));
  EXPECT_THAT(error_of(banner + "3 3 1\n1 4 1\n"), HasSubstr("g.mtx:3: column 4 is outside 1..3"));
  EXPECT_THAT(error_of(banner + "3 3 1\n1 x 1\n"), HasSubstr("g.mtx:3: column 'x' is not an integer"));
  EXPECT_THAT(error_of(banner + "3 3 1\n1 2 -1\n"), HasSubstr("g.mtx:3: value '-1' is negative"));
  EXPECT_THAT(error_of(banner + "3 3 1\n1 2 nan\n"), HasSubstr("g.mtx:3: value 'nan' is not a finite number"));
  EXPECT_THAT(error_of(banner + "3 3 1\n1 2 1e999\n"), HasSubstr("g.mtx:3: value '1e999'"));
  EXPECT_THAT(error_of(banner + "3 3 1\n1 2\n"), HasSubstr("g.mtx:3: an entry needs row, column and value"));
  EXPECT_THAT(error_of(banner + "3 3 1\n1 2 3 4\n"), HasSubstr("g.mtx:3: unexpected text after the entry"));
  EXPECT_THAT(error_of(banner + "3 3 2\n1 2 3\n"), HasSubstr("g.mtx: the size line declares 2 entries but the file has 1"));
  EXPECT_THAT(error_of(banner + "3 3 1\n1 2 3\n% c\n2 1 3\n"), HasSubstr("g.mtx:5: more entries than the 1"));
  EXPECT_THAT(error_of("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 1.5\n"),
              HasSubstr("g.mtx:3: value '1.5' is not an integer"));
  EXPECT_THAT(error_of(banner + "99999999999 99999999999 0\n"), HasSubstr("g.mtx:2: 99999999999 tasks is more than"));
  EXPECT_THAT(error_of(banner + "2 2 1\n1 2 " + std::string(2 << 20, '1') + "\n"), HasSubstr("g.mtx:3: line is longer"));
}

TEST(MatrixMarket, NulByteIsRefused) {
  const std::string text = std::string("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1") + '\0' + "\n";
  EXPECT_THAT(error_of(text), HasSubstr("g.mtx:3: unexpected NUL byte"));
}

TEST(MatrixMarket, MissingFileNamesThePath) {
  try {
    read_matrix_market("/nonexistent/dir/g.mtx");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot open '/nonexistent/dir/g.mtx'"));
  }
}

}  // namespace
}  // namespace rankmap::graph
