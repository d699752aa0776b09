// Dense CSV byte matrices as graphs: rows are senders, headers, and errors naming file and line.
#include <rankmap/graph/csv_matrix.hpp>
#include <rankmap/graph/graph_file.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include "temp_path.hpp"

namespace rankmap::graph {
namespace {

using ::testing::HasSubstr;

CommGraph parse(const std::string& text) {
  std::istringstream in(text);
  return parse_csv_matrix(in, "m.csv");
}

TEST(CsvMatrix, RowsAreSenders) {
  // Row 0 sends 100 to 1; row 1 sends 100 to 0 and 2500 to 2; row 2 sends 2500 to 1 and 7 to itself.
  const CommGraph g = parse("# bytes\n0,100,0\n\n 100 , 0,2.5e3\r\n0,2500,7\n");
  ASSERT_EQ(g.num_tasks(), 3);
  EXPECT_EQ(g.num_edges(), 5);
  EXPECT_EQ(g.total_weight(), 5207);
  ASSERT_EQ(g.out_degree(1), 2);
  EXPECT_EQ(g.out_neighbors(1)[1], 2);
  EXPECT_EQ(g.out_weights(1)[1], 2500);
  EXPECT_EQ(g.out_neighbors(2)[1], 2);
  EXPECT_EQ(g.out_weights(2)[1], 7);
}

TEST(CsvMatrix, AHeaderLineIsSkipped) {
  const CommGraph g = parse("rank0,rank1\n0,4\n5,0\n");
  EXPECT_EQ(g.num_tasks(), 2);
  EXPECT_EQ(g.total_weight(), 9);
}

TEST(CsvMatrix, IsReadByExtension) {
  const std::string path = rankmap::testing::unique_temp_path("rankmap_csv_matrix") + ".csv";
  std::ofstream(path) << "0,1\n1,0\n";
  EXPECT_EQ(read_graph_file(path).num_edges(), 2);
}

void expect_error(const std::string& text, const std::string& message) {
  try {
    parse(text);
    FAIL() << "no error for: " << text;
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(message));
  }
}

TEST(CsvMatrix, BadInputNamesFileAndLine) {
  expect_error("0,1\n1\n", "m.csv:2: the row has 1 values but the first has 2");
  expect_error("0,1\n1,0\n2,2\n", "m.csv:3: more rows than the 2 columns");
  expect_error("0,1,2\n1,0,2\n", "m.csv: the matrix has 2 rows but 3 columns");
  expect_error("0,-1\n1,0\n", "m.csv:1: column 2: '-1' is negative");
  expect_error("0,1\n1,\n", "m.csv:2: column 2: empty value");
  expect_error("0,1\nx,0\n", "m.csv:2: column 1: 'x' is not a finite number");
  expect_error("0,1\n1,inf\n", "m.csv:2: column 2: 'inf' is not a finite number");
  expect_error("# nothing\n", "m.csv: no rows");
}

}  // namespace
}  // namespace rankmap::graph
