// The allocations, patterns and task counts of the mapping quality table, and its families.
#include "quality_instances.hpp"

#include <rankmap/graph/graph_file.hpp>
#include <rankmap/graph/patterns.hpp>
#include <rankmap/topology/allocation_generators.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace rankmap::bench {

namespace {

/// An all-to-all of P tasks has P(P-1) edges: 1 M at 1,024 tasks, 4 M at 2,048, and every one of
/// the table's 17 rows evaluates each mapping three times. It is also the same under every
/// mapping when all nodes hold the same number of tasks, so the small instances show everything
/// it has to show.
constexpr TaskId kMaxAllToAllTasks = 1024;

/// Node counts and seeds of the fragmented allocations (one process per node, as on the Cray
/// XT machines the targets come from, unless ppn says otherwise).
struct FragmentedCase {
  int nodes;
  std::uint64_t seed;
  int ppn = 1;
};
constexpr FragmentedCase kFragmented[] = {{125, 1}, {250, 2}, {500, 3}, {1000, 4}, {2000, 5}};
/// The training set's: the same sizes with other seeds, and one with 4 processes per node.
constexpr FragmentedCase kTrainingFragmented[] = {{125, 11}, {250, 12}, {500, 13}, {1000, 14}, {2000, 15}, {400, 16, 4}};

/// The training set's seed of the random pattern (the table's is 1).
constexpr std::uint64_t kTrainingPatternSeed = 2;

/// The real graphs of the table (files under bench/data), held out from all tuning.
struct RealGraph {
  std::string_view name;
  std::string_view file;
};
constexpr RealGraph kRealGraphs[] = {
    {"maplib-amg", "maplib/matrices/amg.size.csv"},
    {"maplib-btmz", "maplib/matrices/btmz.size.csv"},
    {"maplib-cg", "maplib/matrices/cg.size.csv"},
    {"maplib-lulesh", "maplib/matrices/lulesh.size.csv"},
    // Profiles recorded by rankmap's own profiler (bench/data/profiles/README.md).
    {"lammps-lj-64", "profiles/lammps-lj-64.mtx"},
    {"lammps-lj-512", "profiles/lammps-lj-512.mtx"},
    {"gromacs-spc-64", "profiles/gromacs-spc-64.mtx"},
    {"smpi-bt-1024", "profiles/smpi-bt-1024.mtx"},
    {"smpi-sp-1024", "profiles/smpi-sp-1024.mtx"},
};
/// A real graph runs on every allocation with at least its task count and at most this many times it.
constexpr TaskId kRealSlotsPerTask = 2;

AllocationCase full(const std::string& grid_spec, int ppn, const std::string& family, bool real_only = false) {
  const topology::Grid grid = topology::Grid::parse(grid_spec);
  return {grid_spec + " ppn" + std::to_string(ppn), family, topology::Allocation::full(grid, ppn), ppn, real_only};
}

AllocationCase fragmented(const FragmentedCase& c) {
  const topology::Grid grid = topology::Grid::parse(kFragmentedGrid);
  const std::vector<NodeId> nodes = topology::fragmented_nodes(grid, c.nodes, c.seed);
  return {"frag-" + std::to_string(c.nodes) + (c.ppn > 1 ? " ppn" + std::to_string(c.ppn) : std::string()) +
              " (seed " + std::to_string(c.seed) + ")",
          "fragmented", topology::Allocation::of_nodes(grid, nodes, c.ppn), c.ppn};
}

std::vector<AllocationCase> training_allocations() {
  std::vector<AllocationCase> out;
  out.push_back(full("torus:4x4x8", 1, "3D torus"));
  out.push_back(full("torus:6x6x6", 1, "3D torus"));
  out.push_back(full("torus:8x8x8", 2, "3D torus"));
  out.push_back(full("torus:8x8x16", 8, "3D torus"));
  out.push_back(full("torus:4x4x4x4x2", 1, "5D torus"));
  out.push_back(full("torus:4x4x4x4x2", 4, "5D torus"));
  out.push_back(full("mesh:8x8x8", 1, "mesh"));
  out.push_back(full("mesh:4x8x16", 2, "mesh"));
  for (const FragmentedCase& c : kTrainingFragmented) out.push_back(fragmented(c));
  return out;
}

TaskId largest_square_at_most(TaskId n) {
  auto q = static_cast<TaskId>(std::sqrt(static_cast<double>(n)));
  while (static_cast<std::int64_t>(q + 1) * (q + 1) <= n) ++q;
  while (static_cast<std::int64_t>(q) * q > n) --q;
  return q * q;
}

/// The pattern's size constraints (patterns.hpp): NPB CG runs on a power of two, BT and SP on
/// a square; every other pattern takes any count.
TaskId task_count(std::string_view pattern, TaskId slots) {
  if (pattern == "nas-cg") return static_cast<TaskId>(std::bit_floor(static_cast<std::uint32_t>(slots)));
  if (pattern == "nas-bt" || pattern == "nas-sp") return largest_square_at_most(slots);
  return slots;
}

/// Above this many slots only kLargeSample runs: mapping and measuring 17 rows on 8,192 and
/// 16,384 tasks costs minutes of the shared machine's CPU per instance.
constexpr TaskId kSampleAbove = 4096;
/// One pattern of each family.
constexpr std::string_view kLargeSample[] = {"stencil3d", "recdoubling", "nas-cg", "random"};

bool in_quick_subset(std::string_view pattern) {
  return pattern == "stencil3d" || pattern == "ring" || pattern == "nas-bt" || pattern == "random";
}

}  // namespace

InstanceSet parse_instance_set(std::string_view name) {
  if (name == "table") return InstanceSet::table;
  if (name == "quick") return InstanceSet::quick;
  if (name == "training") return InstanceSet::training;
  throw InputError("instance set '" + std::string(name) + "' is not table, quick or training");
}

std::vector<AllocationCase> quality_allocations(InstanceSet set) {
  if (set == InstanceSet::training) return training_allocations();
  const bool quick = set == InstanceSet::quick;
  std::vector<AllocationCase> out;
  out.push_back(full("torus:4x4x4", 1, "3D torus"));  // the smallest jobs of the issue: 64 tasks
  out.push_back(full("torus:8x8x8", 1, "3D torus"));
  out.push_back(full("torus:8x8x8", 16, "3D torus"));
  if (!quick) {
    out.push_back(full("torus:4x4x4x4x2", 16, "5D torus"));
    out.push_back(full("torus:4x4x4x4x2", 32, "5D torus"));
    out.push_back(full("mesh:8x8x16", 1, "mesh"));
  }
  for (const FragmentedCase& c : kFragmented)
    if (!quick || c.nodes <= 250) out.push_back(fragmented(c));
  if (!quick) {
    // Sized for the real graphs: MapLib's own machine, and a 3D and a 5D torus of 1,024 slots, so
    // that the 512- and 1,024-rank profiles run on every allocation family.
    out.push_back(full("mesh:4x4x4", 1, "mesh", true));
    out.push_back(full("torus:8x8x16", 1, "3D torus", true));
    out.push_back(full("torus:4x4x4x4x2", 2, "5D torus", true));
  }
  return out;
}

std::vector<Instance> quality_instances(const std::vector<AllocationCase>& allocations, InstanceSet set,
                                        const std::string& data_dir) {
  const bool quick = set == InstanceSet::quick;
  std::vector<Instance> out;
  for (const AllocationCase& a : allocations)
    for (std::string_view pattern : graph::pattern_names()) {
      if (a.real_only || (quick && !in_quick_subset(pattern))) continue;
      Instance i;
      i.id = static_cast<int>(out.size());
      i.pattern = std::string(pattern);
      i.pattern_family = pattern_family(pattern);
      i.pattern_seed = set == InstanceSet::training ? kTrainingPatternSeed : 1;
      i.allocation = &a;
      i.tasks = task_count(pattern, a.alloc.num_slots());
      if (a.alloc.num_slots() > kSampleAbove &&
          std::find(std::begin(kLargeSample), std::end(kLargeSample), pattern) == std::end(kLargeSample))
        i.skip_reason = "sampled out: above " + std::to_string(kSampleAbove) +
                        " slots only stencil3d, recdoubling, nas-cg and random run";
      else if (pattern == "alltoall" && i.tasks > kMaxAllToAllTasks)
        i.skip_reason = "all-to-all of " + std::to_string(i.tasks) + " tasks: " +
                        std::to_string(static_cast<std::int64_t>(i.tasks) * (i.tasks - 1) / 1000000) +
                        " M edges, too large for this table (and mapping-invariant at equal ppn)";
      out.push_back(std::move(i));
    }
  if (set == InstanceSet::table)
    for (const RealGraph& real : kRealGraphs) {
      const std::string file = data_dir + "/" + std::string(real.file);
      const TaskId tasks = graph::read_graph_file(file).num_tasks();
      for (const AllocationCase& a : allocations) {
        const TaskId slots = a.alloc.num_slots();
        if (slots < tasks || slots > kRealSlotsPerTask * tasks) continue;
        Instance i;
        i.id = static_cast<int>(out.size());
        i.pattern = std::string(real.name);
        i.pattern_family = "real";
        i.graph_file = file;
        i.allocation = &a;
        i.tasks = tasks;
        out.push_back(std::move(i));
      }
    }
  return out;
}

std::string instance_label(const Instance& instance) { return instance.pattern + " on " + instance.allocation->label; }

std::string pattern_family(std::string_view pattern) {
  if (pattern.starts_with("stencil")) return "stencil";
  if (pattern == "ring" || pattern == "recdoubling" || pattern == "binomial" || pattern == "bruck" ||
      pattern == "alltoall")
    return "collective";
  if (pattern == "fft2d" || pattern.starts_with("nas-")) return "application";
  if (pattern == "random") return "random";
  return "other";
}

graph::CommGraph instance_graph(const Instance& instance) {
  if (!instance.graph_file.empty()) return graph::read_graph_file(instance.graph_file);
  graph::PatternSpec spec;
  spec.name = instance.pattern;
  spec.ranks = instance.tasks;
  spec.seed = instance.pattern_seed;
  return graph::make_pattern(spec);
}

topology::Allocation instance_allocation(const Instance& instance) {
  return instance.allocation->alloc.first_slots(instance.tasks);
}

}  // namespace rankmap::bench
