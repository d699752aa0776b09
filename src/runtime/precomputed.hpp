// RANKMAP_MAPPING: finding a precomputed mapping that matches the live graph and allocation.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/mapping/mapping_file.hpp>
#include <rankmap/topology/allocation.hpp>

#include <optional>
#include <string>

namespace rankmap::runtime {

struct PrecomputedMapping {
  std::string path;
  mapping::MappingFile file;
};

/// The first file (a single file, or the regular files of a directory in name order) whose task
/// count, graph hash and allocation hash match. When none matches, `refusal` says why, naming the
/// file and the field (for a directory: the first refusal and how many files were tried).
std::optional<PrecomputedMapping> find_precomputed_mapping(const std::string& path, const graph::CommGraph& graph,
                                                           const topology::Allocation& alloc, std::string& refusal);

}  // namespace rankmap::runtime
