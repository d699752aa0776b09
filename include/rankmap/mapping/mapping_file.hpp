// The versioned mapping file (DESIGN.md §8): a permutation plus the fingerprints of what it was computed for.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/topology/allocation.hpp>

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace rankmap::mapping {

/// ```
/// rankmap-mapping 1
/// tasks <P>
/// graph <16 hex digits: CommGraph::canonical_hash()>
/// allocation <16 hex digits: Allocation::hash() of the P slots the tasks map onto>
/// algorithm <name> [objective value]
/// <task> <slot>          # P lines, 0-based, in any order
/// ```
/// `#` starts a comment; blank lines are ignored.
struct MappingFile {
  TaskId tasks = 0;
  std::uint64_t graph_hash = 0;
  std::uint64_t allocation_hash = 0;
  std::string algorithm;
  std::optional<double> objective;
  Mapping slot_of;
};

/// Checks every field, and that the task lines give each task exactly one slot and each slot
/// exactly one task. Throws InputError naming `source` and the line of the first problem.
MappingFile parse_mapping_file(std::istream& in, std::string_view source);
MappingFile read_mapping_file(const std::string& path);

/// Throws InputError if the record is inconsistent (slot_of not a permutation of `tasks`
/// slots, an algorithm name with blanks, a non-finite objective).
void write_mapping_file(std::ostream& out, const MappingFile& file);
void write_mapping_file(const std::string& path, const MappingFile& file);

/// Refuses a mapping computed for another job: throws InputError naming `source` and which of
/// the task count, the graph hash or the allocation hash differs. `alloc` is the allocation
/// the tasks run on, already truncated to the graph's task count.
void check_mapping_matches(const MappingFile& file, const graph::CommGraph& graph, const topology::Allocation& alloc,
                           std::string_view source);

}  // namespace rankmap::mapping
