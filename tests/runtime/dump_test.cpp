// RANKMAP_DUMP's files read back by the tools' readers as the same job.
#include "dump.hpp"

#include <rankmap/graph/graph_file.hpp>
#include <rankmap/mapping/mapping_file.hpp>
#include <rankmap/topology/coordinate_file.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include "temp_path.hpp"

namespace rankmap::runtime {
namespace {

// RANKMAP_DUMP's files are the input of `rankmap map`: the graph through the same reader as any
// graph file, the allocation through --alloc-file, the mapping through --mapping.
TEST(Dump, WhatIsDumpedReadsBackAsTheSameJob) {
  const std::string dir = rankmap::testing::unique_temp_path("rankmap_dump_test");
  std::filesystem::remove_all(dir);
  // Weights that need all 17 digits, and a billion, must come back bit for bit for the hash to match.
  const graph::CommGraph graph = graph::CommGraph::from_edges(4, {{0, 1, 100}, {1, 2, 0.1 + 0.2}, {3, 0, 1e9}});
  Placement placement;
  placement.alloc = topology::Allocation::full(topology::Grid::parse("torus:2x2"), 1);
  Decision decision;
  decision.applied = true;
  decision.algorithm = "mahd";
  decision.slot_of = {1, 0, 3, 2};
  const std::string stem = dump_reorder(dir, graph, placement, decision);
  EXPECT_EQ(stem, dir + "/reorder-001");

  const graph::CommGraph read = graph::read_graph_file(stem + ".mtx");
  EXPECT_EQ(read.canonical_hash(), graph.canonical_hash());
  const topology::Allocation alloc = topology::allocation_of(topology::read_coordinate_file(stem + ".coords"), 0);
  EXPECT_EQ(alloc.hash(), placement.alloc.hash());
  const mapping::MappingFile m = mapping::read_mapping_file(stem + ".map");
  EXPECT_NO_THROW(mapping::check_mapping_matches(m, read, alloc, stem + ".map"));
  EXPECT_EQ(m.slot_of, decision.slot_of);
  EXPECT_EQ(m.algorithm, "mahd");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rankmap::runtime
