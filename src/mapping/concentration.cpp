// Concentration: tasks clustered into node-sized groups, by tiling a stencil's task grid or by METIS.
#include <rankmap/mapping/concentration.hpp>

#include "slot_layout.hpp"
#include "symmetrized_memo.hpp"
#include "task_grid.hpp"

#include <metis.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace rankmap::mapping {

namespace {

/// Consecutive tasks in groups of the given sizes: what is left when there is nothing to partition.
std::vector<int> block_parts(TaskId n, std::span<const int> sizes) {
  std::vector<int> part(static_cast<std::size_t>(n));
  for (TaskId t = 0, p = 0, used = 0; t < n; ++t, ++used) {
    if (used == sizes[p]) ++p, used = 0;
    part[t] = p;
  }
  return part;
}

/// A graph in METIS's form: CSR with integer edge weights.
struct MetisGraph {
  std::vector<idx_t> xadj{0}, adjncy, adjwgt;
};

/// The subgraph of `sym` on `tasks` (all of it when `tasks` is empty) in METIS's form, with edge
/// weights scaled to integers small enough that METIS's cut sums cannot overflow idx_t.
MetisGraph metis_graph(const graph::CommGraph& sym, std::span<const TaskId> tasks, double scale,
                       std::vector<idx_t>& local) {
  MetisGraph g;
  const TaskId n = tasks.empty() ? sym.num_tasks() : static_cast<TaskId>(tasks.size());
  const auto task = [&](TaskId i) { return tasks.empty() ? i : tasks[i]; };
  if (!tasks.empty())
    for (TaskId i = 0; i < n; ++i) local[task(i)] = i;
  for (TaskId i = 0; i < n; ++i) {
    const auto targets = sym.out_neighbors(task(i));
    const auto weights = sym.out_weights(task(i));
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const idx_t to = tasks.empty() ? targets[k] : local[targets[k]];
      if (to < 0) continue;
      g.adjncy.push_back(to);
      g.adjwgt.push_back(std::max<idx_t>(1, static_cast<idx_t>(std::llround(weights[k] * scale))));
    }
    g.xadj.push_back(static_cast<idx_t>(g.adjncy.size()));
  }
  if (!tasks.empty())
    for (TaskId i = 0; i < n; ++i) local[task(i)] = -1;
  return g;
}

/// METIS recursive bisection of `g` into parts with target weights proportional to `sizes`; an
/// empty result if METIS fails.
std::vector<idx_t> metis_recursive(MetisGraph& g, std::span<const int> sizes, std::uint64_t seed) {
  idx_t n = static_cast<idx_t>(g.xadj.size() - 1);
  idx_t parts = static_cast<idx_t>(sizes.size());
  double total = 0;
  for (int s : sizes) total += s;
  std::vector<real_t> target(sizes.size());
  for (std::size_t p = 0; p < sizes.size(); ++p) target[p] = static_cast<real_t>(sizes[p]) / static_cast<real_t>(total);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = static_cast<idx_t>(seed % 1000003);
  idx_t constraints = 1, cut = 0;
  real_t imbalance = 1.03f;
  std::vector<idx_t> result(static_cast<std::size_t>(n), 0);
  // GKlib's random number generator is one state for the whole process, which METIS seeds at every
  // call: two partitions at once race on it (emahd built next to another member of auto on two
  // threads gave a different mapping on every run), so they take turns.
  static std::mutex metis_mutex;
  const std::lock_guard lock(metis_mutex);
  const int status = METIS_PartGraphRecursive(&n, &constraints, g.xadj.data(), g.adjncy.empty() ? nullptr : g.adjncy.data(),
                                              nullptr, nullptr, g.adjwgt.empty() ? nullptr : g.adjwgt.data(), &parts,
                                              target.data(), &imbalance, options, &cut, result.data());
  if (status != METIS_OK) result.clear();
  return result;
}

double weight_scale(const graph::CommGraph& sym) {
  double max_w = 0, total_w = 0;
  for (TaskId t = 0; t < sym.num_tasks(); ++t)
    for (double w : sym.out_weights(t)) max_w = std::max(max_w, w), total_w += w;
  return max_w > 0 ? std::min(double(1 << 20) / max_w, double(1 << 30) / total_w) : 0;
}

/// METIS recursive bisection with target part weights proportional to the group sizes. With one
/// part per node there are few tasks per part, which leaves k-way METIS little to coarsen: recursive
/// bisection was 4-5x faster on 16,384 tasks in 512 parts, with a smaller cut on a shuffled stencil.
std::vector<int> metis_parts(const graph::CommGraph& sym, std::span<const int> sizes, std::uint64_t seed) {
  const TaskId n = sym.num_tasks();
  if (sizes.size() == 1 || sym.num_edges() == 0) return block_parts(n, sizes);
  std::vector<idx_t> unused;
  MetisGraph g = metis_graph(sym, {}, weight_scale(sym), unused);
  const std::vector<idx_t> result = metis_recursive(g, sizes, seed);
  if (result.empty()) return block_parts(n, sizes);
  return std::vector<int>(result.begin(), result.end());
}

/// How long one METIS bisection may take, in ms per vertex and per adjacency entry of its graph:
/// the upper envelope of the bisections of at least 2,000 tasks made on the quality table's
/// training and held-out graphs (2026-11-30). Sparse random graphs, which coarsen worst, took up to
/// 3.7 us a vertex (60 ms for 16,384 tasks); dense ones up to 0.015 us an entry (16 ms for
/// alltoall's million entries on 1,024 tasks); structured sparse ones 0.4 to 1.7 us a vertex.
constexpr double kMetisMsPerVertex = 3.7e-3;
constexpr double kMetisMsPerEntry = 1.5e-5;

/// The same recursive bisection one cut at a time, so that a deadline can stop it: parts
/// [lo, hi) of `sizes` share `tasks`; each range is cut in two halves of its parts by METIS
/// (target weights as their sizes), and every range left is filled in task order instead once
/// the deadline leaves less than such a cut may take. METIS cannot be stopped, and before that
/// rule one cut of 16,384 random tasks took emahd to 110 to 130 ms of a 35 ms budget. The cut
/// sides only approximate their sizes (METIS allows 3% imbalance); repair_sizes() makes them exact.
class TimedBisection {
 public:
  TimedBisection(const graph::CommGraph& sym, std::span<const int> sizes, std::uint64_t seed, const Deadline& deadline)
      : sym_(sym), sizes_(sizes), seed_(seed), deadline_(deadline), scale_(weight_scale(sym)),
        local_(static_cast<std::size_t>(sym.num_tasks()), -1), part_(static_cast<std::size_t>(sym.num_tasks()), 0) {}

  std::vector<int> run() {
    std::vector<TaskId> all(static_cast<std::size_t>(sym_.num_tasks()));
    for (TaskId t = 0; t < sym_.num_tasks(); ++t) all[t] = t;
    cut(all, 0, static_cast<int>(sizes_.size()));
    return std::move(part_);
  }

 private:
  void cut(std::span<const TaskId> tasks, int lo, int hi) {
    if (tasks.empty()) return;
    if (hi - lo == 1 || sym_.num_edges() == 0 || deadline_.remaining_ms() < likely_cut_ms(tasks)) {
      fill(tasks, lo, hi);
      return;
    }
    const int mid = lo + (hi - lo) / 2;
    int left = 0, right = 0;
    for (int p = lo; p < mid; ++p) left += sizes_[p];
    for (int p = mid; p < hi; ++p) right += sizes_[p];
    MetisGraph g = metis_graph(sym_, tasks, scale_, local_);
    const int halves[2] = {left, right};
    const std::vector<idx_t> side = metis_recursive(g, halves, seed_ + static_cast<std::uint64_t>(lo));
    if (side.empty()) {
      fill(tasks, lo, hi);
      return;
    }
    std::vector<TaskId> first, second;
    for (std::size_t i = 0; i < tasks.size(); ++i) (side[i] == 0 ? first : second).push_back(tasks[i]);
    cut(first, lo, mid);
    cut(second, mid, hi);
  }

  /// The most a METIS cut of `tasks` is likely to take, counting every entry of their adjacency
  /// lists, also those to tasks outside the range.
  double likely_cut_ms(std::span<const TaskId> tasks) const {
    std::size_t entries = 0;
    for (TaskId t : tasks) entries += sym_.out_neighbors(t).size();
    return kMetisMsPerVertex * static_cast<double>(tasks.size()) + kMetisMsPerEntry * static_cast<double>(entries);
  }

  /// Tasks in order into parts lo, lo+1, ... by their sizes (the last takes any excess).
  void fill(std::span<const TaskId> tasks, int lo, int hi) {
    int p = lo, used = 0;
    for (TaskId t : tasks) {
      while (p + 1 < hi && used >= sizes_[p]) ++p, used = 0;
      part_[t] = p;
      ++used;
    }
  }

  const graph::CommGraph& sym_;
  std::span<const int> sizes_;
  std::uint64_t seed_;
  const Deadline& deadline_;
  double scale_;
  std::vector<idx_t> local_;
  std::vector<int> part_;
};

/// Moves tasks out of groups larger than their size into groups that are too small, each time the
/// task that loses the least connection (bytes to the receiving group minus bytes to its own),
/// preferring receiving groups it talks to.
void repair_sizes(const graph::CommGraph& sym, std::span<const int> sizes, std::vector<int>& group) {
  const std::size_t groups = sizes.size();
  std::vector<std::vector<TaskId>> members(groups);
  for (TaskId t = 0; t < sym.num_tasks(); ++t) members[group[t]].push_back(t);
  std::vector<int> short_groups;
  std::vector<char> is_short(groups, 0);
  for (std::size_t g = 0; g < groups; ++g)
    if (static_cast<int>(members[g].size()) < sizes[g]) short_groups.push_back(static_cast<int>(g)), is_short[g] = 1;
  std::size_t first_short = 0;
  std::vector<double> bytes_to(groups, 0.0);
  for (std::size_t g = 0; g < groups; ++g) {
    while (static_cast<int>(members[g].size()) > sizes[g]) {
      while (!is_short[short_groups[first_short]]) ++first_short;
      double best_gain = -std::numeric_limits<double>::infinity();
      std::size_t best_index = 0;
      int best_target = -1;
      for (std::size_t i = 0; i < members[g].size(); ++i) {
        const TaskId t = members[g][i];
        const auto targets = sym.out_neighbors(t);
        const auto weights = sym.out_weights(t);
        for (std::size_t k = 0; k < targets.size(); ++k) bytes_to[group[targets[k]]] += weights[k];
        int target = short_groups[first_short];
        for (TaskId x : targets) {
          const int h = group[x];
          if (is_short[h] && bytes_to[h] > bytes_to[target]) target = h;
        }
        const double gain = bytes_to[target] - bytes_to[g];
        if (gain > best_gain) best_gain = gain, best_index = i, best_target = target;
        for (TaskId x : targets) bytes_to[group[x]] = 0;
      }
      const TaskId moved = members[g][best_index];
      members[g].erase(members[g].begin() + static_cast<std::ptrdiff_t>(best_index));
      members[best_target].push_back(moved);
      group[moved] = best_target;
      if (static_cast<int>(members[best_target].size()) == sizes[best_target]) is_short[best_target] = 0;
    }
  }
}

}  // namespace

std::vector<int> partition_exact(const graph::CommGraph& graph, std::span<const int> sizes, std::uint64_t seed,
                                 const Deadline* deadline) {
  const std::shared_ptr<const graph::CommGraph> shared = detail::symmetrized(graph);
  const graph::CommGraph& sym = *shared;
  std::vector<int> part = deadline ? TimedBisection(sym, sizes, seed, *deadline).run() : metis_parts(sym, sizes, seed);
  repair_sizes(sym, sizes, part);
  return part;
}

Concentration concentrate(const graph::CommGraph& graph, const topology::Allocation& alloc, std::uint64_t seed,
                          const Deadline* deadline) {
  if (graph.num_tasks() != alloc.num_slots())
    throw InputError("concentration: the graph has " + std::to_string(graph.num_tasks()) + " tasks but the allocation " +
                     std::to_string(alloc.num_slots()) + " slots");
  Concentration c;
  c.group_size = detail::node_slot_counts(alloc);
  const bool uniform = std::all_of(c.group_size.begin(), c.group_size.end(), [&](int s) { return s == c.group_size[0]; });
  if (uniform) {
    c.task_grid = detect_task_grid(graph);
    if (!c.task_grid.empty())
      c.tile = choose_tile(c.task_grid, detail::bytes_along_dimensions(graph, c.task_grid), c.group_size[0]);
  }
  if (!c.tile.empty()) {
    c.method = ConcentrationMethod::tiling;
    c.group_of_task = detail::tile_groups(c.task_grid, c.tile);
  } else {
    c.method = ConcentrationMethod::metis;
    c.task_grid.clear();
    c.group_of_task = partition_exact(graph, c.group_size, seed, deadline);
  }
  c.group_graph = graph.contracted(c.group_of_task, alloc.num_nodes());
  return c;
}

Mapping expand_groups(const Concentration& concentration, const topology::Allocation& alloc,
                      std::span<const int> node_of_group) {
  std::vector<std::size_t> used(static_cast<std::size_t>(alloc.num_nodes()), 0);
  Mapping slot_of(concentration.group_of_task.size());
  for (std::size_t t = 0; t < slot_of.size(); ++t) {
    const int g = concentration.group_of_task[t];
    const int node = node_of_group[g];
    const auto slots = alloc.slots_of_node(node);
    if (static_cast<int>(slots.size()) != concentration.group_size[g])
      throw std::logic_error("concentration: a group was placed on a node of another size");
    slot_of[t] = slots[used[node]++];
  }
  return slot_of;
}

}  // namespace rankmap::mapping
