// Reading any graph file: dispatch by extension and by content, and errors that name the path.
#include <rankmap/graph/graph_file.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace rankmap::graph {
namespace {

using ::testing::HasSubstr;

/// Writes `text` to a fresh file named `name` in the test's temporary directory.
std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "rankmap_graph_file_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

const std::string kMatrixMarket = "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n";
const std::string kMetis = "3 2\n2\n1 3\n2\n";

TEST(GraphFile, DispatchesOnExtension) {
  EXPECT_EQ(read_graph_file(write_temp("a.mtx", kMatrixMarket)).num_edges(), 2);
  EXPECT_EQ(read_graph_file(write_temp("a.MTX", kMatrixMarket)).num_edges(), 2);
  EXPECT_EQ(read_graph_file(write_temp("a.graph", kMetis)).num_edges(), 4);
  EXPECT_EQ(read_graph_file(write_temp("a.metis", kMetis)).num_edges(), 4);
}

TEST(GraphFile, SniffsMatrixMarketWithoutExtension) {
  EXPECT_EQ(read_graph_file(write_temp("noext", kMatrixMarket)).num_edges(), 2);
  EXPECT_EQ(read_graph_file(write_temp("a.txt", kMatrixMarket)).num_edges(), 2);
}

TEST(GraphFile, UnknownFormatNamesThePathAndTheFormats) {
  const std::string path = write_temp("b.txt", kMetis);
  try {
    read_graph_file(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(path + ": cannot tell the graph format"));
    EXPECT_THAT(e.what(), HasSubstr("Matrix Market (.mtx), METIS (.graph .metis)"));
  }
}

TEST(GraphFile, ErrorsInsideTheFileNameItsPath) {
  const std::string path = write_temp("bad.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 9\n");
  try {
    read_graph_file(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(path + ":3: column 9 is outside 1..3"));
  }
}

TEST(GraphFile, MissingFileAndDirectoryAreRefused) {
  EXPECT_THROW(read_graph_file("/nonexistent/g.mtx"), InputError);
  try {
    read_graph_file(::testing::TempDir());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("is a directory"));
  }
}

}  // namespace
}  // namespace rankmap::graph
