// Open MPI pml monitoring profile sets as one graph, and the errors of incomplete or mixed sets.
#include <rankmap/graph/graph_file.hpp>
#include <rankmap/graph/monitoring_profile.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace rankmap::graph {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

/// A fresh directory per test.
fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("rankmap_prof_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

/// The histogram column Open MPI prints after E lines: 66 bins of message counts by size.
std::string histogram(int bin, int count) {
  std::string out;
  for (int j = 0; j < 66; ++j) out += (j ? "," : "") + std::to_string(j == bin ? count : 0);
  return out;
}

std::string summaries(int rank) {
  const std::string r = std::to_string(rank);
  return "D\tMPI_COMM_WORLD\tprocs: 0,1,2\nO2A\t" + r + "\t0 bytes\t0 msgs sent\nA2O\t" + r +
         "\t0 bytes\t0 msgs sent\nA2A\t" + r + "\t16 bytes\t1 msgs sent\n";
}

/// The profiles Open MPI 4.1.4 wrote for a 3-rank ring: three MPI_Sendrecv of 100*(r+1) bytes
/// from r to r+1, then one MPI_Allreduce of a double, run with
/// `--mca pml_monitoring_enable 1 --mca pml_monitoring_enable_output 3`.
void write_ring_profiles(const fs::path& prefix) {
  write(prefix.string() + ".0.prof", "# POINT TO POINT\nE\t0\t1\t308 bytes\t4 msgs sent\t" + histogram(7, 3) +
                                         "\n# OSC\n# COLLECTIVES\nC\t0\t1\t8 bytes\t1 msgs sent\n"
                                         "C\t0\t2\t8 bytes\t1 msgs sent\n" + summaries(0));
  write(prefix.string() + ".1.prof", "# POINT TO POINT\nE\t1\t0\t8 bytes\t1 msgs sent\t" + histogram(4, 1) +
                                         "\nE\t1\t2\t608 bytes\t4 msgs sent\t" + histogram(8, 3) +
                                         "\n# OSC\n# COLLECTIVES\nC\t1\t0\t8 bytes\t1 msgs sent\n" + summaries(1));
  write(prefix.string() + ".2.prof", "# POINT TO POINT\nE\t2\t0\t900 bytes\t3 msgs sent\t" + histogram(9, 3) +
                                         "\nE\t2\t1\t8 bytes\t1 msgs sent\t" + histogram(4, 1) +
                                         "\n# OSC\n# COLLECTIVES\n" + summaries(2));
}

/// The E lines only: 0->1 308, 1->0 8, 1->2 608, 2->0 900, 2->1 8 (the C lines repeat the
/// Allreduce's 8-byte messages, which E already counts).
void expect_ring(const CommGraph& g) {
  ASSERT_EQ(g.num_tasks(), 3);
  const std::vector<Edge> edges = g.edges();
  ASSERT_EQ(edges.size(), 5u);
  const Edge expected[] = {{0, 1, 308}, {1, 0, 8}, {1, 2, 608}, {2, 0, 900}, {2, 1, 8}};
  for (std::size_t k = 0; k < edges.size(); ++k) {
    EXPECT_EQ(edges[k].src, expected[k].src);
    EXPECT_EQ(edges[k].dst, expected[k].dst);
    EXPECT_EQ(edges[k].weight, expected[k].weight);
  }
  EXPECT_EQ(g.total_weight(), 1832);
}

TEST(MonitoringProfile, ReadsARealSetByPrefixByFileAndByDirectory) {
  const fs::path dir = fresh_dir("ring");
  write_ring_profiles(dir / "app");
  expect_ring(read_monitoring_profiles((dir / "app").string()));
  expect_ring(read_monitoring_profiles((dir / "app.2.prof").string()));
  expect_ring(read_monitoring_profiles(dir.string()));
  expect_ring(read_graph_file((dir / "app").string()));
  expect_ring(read_graph_file((dir / "app.0.prof").string()));
  expect_ring(read_graph_file(dir.string()));
}

TEST(MonitoringProfile, InternalAndOneSidedLinesAreTraffic) {
  // pml_monitoring_enable 2 lists collective messages as I; an I line without E carries the histogram.
  // S is a put from rank 1 to 2, R a get by rank 1 from 0, so 1->0 100, 1->2 16+64, 0->1 32.
  std::istringstream in(
      "# POINT TO POINT\nE\t1\t0\t100 bytes\t1 msgs sent\t" + histogram(6, 1) + "\nI\t1\t2\t16 bytes\t2 msgs sent\t" +
      histogram(4, 2) + "\n# OSC\nS\t1\t2\t64 bytes\t1 msgs sent\nR\t1\t0\t32 bytes\t1 msgs sent\n# COLLECTIVES\n");
  const auto edges = parse_monitoring_profile(in, "p.1.prof", 1, 3);
  const CommGraph g = CommGraph::from_edges(3, edges);
  EXPECT_EQ(g.num_edges(), 3);
  EXPECT_EQ(g.total_weight(), 212);
  EXPECT_EQ(g.out_weights(1)[0], 100);
  EXPECT_EQ(g.out_weights(1)[1], 80);
  EXPECT_EQ(g.out_weights(0)[0], 32);
}

void expect_error(const std::string& text, TaskId rank, const std::string& message) {
  std::istringstream in(text);
  try {
    parse_monitoring_profile(in, "x.1.prof", rank, 3);
    FAIL() << "no error for: " << text;
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(message));
  }
}

TEST(MonitoringProfile, BadLinesNameFileAndLine) {
  expect_error("# POINT TO POINT\nE\t0\t1\t8 bytes\t1 msgs sent\n", 1,
               "x.1.prof:2: the line is about rank 0 but the file is the profile of rank 1");
  expect_error("E\t1\t3\t8 bytes\t1 msgs sent\n", 1, "x.1.prof:1: peer rank 3 is outside 0..2");
  expect_error("E\t1\t2\t-8 bytes\t1 msgs sent\n", 1, "x.1.prof:1: byte count '-8' is not a count");
  expect_error("E\t1\t2\t8 kB\t1 msgs sent\n", 1, "x.1.prof:1: expected 'bytes', found 'kB'");
  expect_error("E\t1\t2\t8 bytes\n", 1, "x.1.prof:1: the line ends before its message count");
  expect_error("X\t1\t2\t8 bytes\t1 msgs sent\n", 1, "x.1.prof:1: unknown line type 'X'");
  expect_error("S\t1\t2\t8 bytes\t1 msgs sent\t0,1\n", 1, "x.1.prof:1: unexpected text '0,1'");
}

TEST(MonitoringProfile, AMissingRankIsNamed) {
  const fs::path dir = fresh_dir("gap");
  write_ring_profiles(dir / "app");
  fs::remove(dir / "app.1.prof");
  try {
    read_monitoring_profiles((dir / "app").string());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("app.<rank>.prof: the profile of rank 1 is missing (files found: 2)"));
  }
  // Without rank 0 the prefix is still recognised, so the message says what is wrong.
  fs::remove(dir / "app.0.prof");
  try {
    read_graph_file((dir / "app").string());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("app.<rank>.prof: the profile of rank 0 is missing (files found: 1)"));
  }
}

TEST(MonitoringProfile, APeerBeyondTheSetNamesTheFile) {
  const fs::path dir = fresh_dir("beyond");
  write(dir / "app.0.prof", "E\t0\t1\t8 bytes\t1 msgs sent\n");
  try {
    read_monitoring_profiles((dir / "app").string());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr((dir / "app.0.prof").string() + ":1: peer rank 1 is outside 0..0"));
  }
}

TEST(MonitoringProfile, ADirectoryWithTwoSetsIsAmbiguous) {
  const fs::path dir = fresh_dir("two");
  write(dir / "a.0.prof", "");
  write(dir / "b.0.prof", "");
  try {
    read_graph_file(dir.string());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("several profile sets (a, b)"));
  }
  // A set whose ranks sent nothing is a graph without edges, not an error.
  EXPECT_EQ(read_graph_file((dir / "a").string()).num_tasks(), 1);
}

}  // namespace
}  // namespace rankmap::graph
