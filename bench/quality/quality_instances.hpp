// The instances of the mapping quality table (issue 3): every pattern on every allocation, in families.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/topology/allocation.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace rankmap::bench {

/// One allocation of the table, with the family it belongs to.
struct AllocationCase {
  std::string label;   ///< e.g. `torus:8x8x8 ppn16`, `frag-500 (seed 3)`
  std::string family;  ///< `3D torus`, `5D torus`, `mesh`, `fragmented`
  topology::Allocation alloc;
  int ppn = 1;
};

/// One pattern on one allocation. The task count is the allocation's slot count, or the
/// largest count below it that the pattern accepts; the job then runs on the first slots.
struct Instance {
  int id = 0;
  std::string pattern;
  std::string pattern_family;  ///< `stencil`, `collective`, `application`, `random`
  const AllocationCase* allocation = nullptr;
  TaskId tasks = 0;
  std::string skip_reason;  ///< not empty: the instance is listed but not run
};

/// The grid the fragmented allocations are cut from.
inline constexpr std::string_view kFragmentedGrid = "torus:16x24x24";

/// The allocations of the full table, or of the quick subset.
std::vector<AllocationCase> quality_allocations(bool quick);
/// Every pattern on every allocation (a subset of patterns when quick), ids in order.
std::vector<Instance> quality_instances(const std::vector<AllocationCase>& allocations, bool quick);
/// The pattern family of a pattern name (`other` for a name this table does not know).
std::string pattern_family(std::string_view pattern);

/// The instance's communication graph and its allocation truncated to the task count.
graph::CommGraph instance_graph(const Instance& instance);
topology::Allocation instance_allocation(const Instance& instance);

}  // namespace rankmap::bench
