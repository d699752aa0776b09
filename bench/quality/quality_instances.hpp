// The instances of the mapping quality table (issue 3): every pattern on every allocation, in families.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/topology/allocation.hpp>

#include <cstdint>
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
  bool real_only = false;  ///< only the real graphs run on it (sized for them)
};

/// Which instances a run uses (docs in bench/quality/README.md).
enum class InstanceSet {
  table,     ///< the quality table: synthetic patterns and the real family; reported, never tuned on
  quick,     ///< a few of the table's, a smoke test
  training,  ///< the same pattern generators on other allocations and seeds: what auto is tuned on
};

/// `table`, `quick` or `training`; throws InputError otherwise.
InstanceSet parse_instance_set(std::string_view name);

/// One pattern on one allocation. The task count is the allocation's slot count, or the
/// largest count below it that the pattern accepts; the job then runs on the first slots.
struct Instance {
  int id = 0;
  std::string pattern;
  std::string pattern_family;  ///< `stencil`, `collective`, `application`, `random`, `real`
  std::string graph_file;      ///< a real graph's file (the pattern is then its name)
  std::uint64_t pattern_seed = 1;  ///< the random pattern's seed
  const AllocationCase* allocation = nullptr;
  TaskId tasks = 0;
  std::string skip_reason;  ///< not empty: the instance is listed but not run
};

/// The grid the fragmented allocations are cut from.
inline constexpr std::string_view kFragmentedGrid = "torus:16x24x24";

/// The allocations of an instance set.
std::vector<AllocationCase> quality_allocations(InstanceSet set);
/// Every pattern on every allocation that is not real-only (a subset of patterns when quick), then,
/// in the table, every real graph (files under `data_dir`, bench/data) on the allocations that fit
/// it; ids in order.
std::vector<Instance> quality_instances(const std::vector<AllocationCase>& allocations, InstanceSet set,
                                        const std::string& data_dir);
/// `<pattern> on <allocation>`, what --filter options match.
std::string instance_label(const Instance& instance);
/// The pattern family of a pattern name (`other` for a name this table does not know).
std::string pattern_family(std::string_view pattern);

/// The instance's communication graph and its allocation truncated to the task count.
graph::CommGraph instance_graph(const Instance& instance);
topology::Allocation instance_allocation(const Instance& instance);

}  // namespace rankmap::bench
