// The communication graph: a directed, weighted graph in compressed sparse row form.
#pragma once

#include <rankmap/types.hpp>

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace rankmap::graph {

/// `weight` bytes sent from task `src` to task `dst`.
struct Edge {
  TaskId src;
  TaskId dst;
  double weight;
};

/// Edge (i, j, w) means w bytes from task i to task j (DESIGN.md §6).
///
/// Built once and immutable. Out-edges of each task are sorted by destination and duplicate
/// edges are merged by summing their weights, so every graph has one canonical form.
class CommGraph {
 public:
  CommGraph() = default;

  /// Throws InputError if an endpoint is outside 0..num_tasks-1 or a weight is negative or not finite.
  static CommGraph from_edges(TaskId num_tasks, std::vector<Edge> edges);

  TaskId num_tasks() const noexcept { return num_tasks_; }
  std::int64_t num_edges() const noexcept { return static_cast<std::int64_t>(targets_.size()); }
  std::span<const TaskId> out_neighbors(TaskId t) const {
    return {targets_.data() + offsets_[t], static_cast<std::size_t>(offsets_[t + 1] - offsets_[t])};
  }
  std::span<const double> out_weights(TaskId t) const {
    return {weights_.data() + offsets_[t], static_cast<std::size_t>(offsets_[t + 1] - offsets_[t])};
  }
  std::int64_t out_degree(TaskId t) const { return offsets_[t + 1] - offsets_[t]; }
  /// Sum of all edge weights (bytes).
  double total_weight() const noexcept { return total_weight_; }

  /// All edges in canonical order.
  std::vector<Edge> edges() const;
  /// The graph with every edge reversed.
  CommGraph transposed() const;
  /// The undirected view: w'(i,j) = w(i,j) + w(j,i), stored in both directions, self loops dropped.
  CommGraph symmetrized() const;
  /// The quotient graph: task t becomes group `group_of[t]` (0..groups-1), edges within a group
  /// are dropped and those between two groups summed (zero weights kept, as from_edges keeps
  /// them). Throws InputError if `group_of` has not one group in range per task.
  CommGraph contracted(std::span<const int> group_of, int groups) const;
  /// The rows of contracted() without building it: visit(a, targets, weights) for every group a in
  /// order, the targets ascending. Stops and returns false as soon as visit returns false, so that
  /// a caller with a deadline can give up on a dense graph. Throws as contracted() does.
  using ContractedRowVisit = std::function<bool(int, std::span<const int>, std::span<const double>)>;
  bool for_each_contracted_row(std::span<const int> group_of, int groups, const ContractedRowVisit& visit) const;

  /// A stable hash of the canonical edge list, written into mapping files (DESIGN.md §8).
  std::uint64_t canonical_hash() const;

 private:
  std::vector<std::int64_t> in_list_offsets() const;

  TaskId num_tasks_ = 0;
  std::vector<std::int64_t> offsets_{0};
  std::vector<TaskId> targets_;
  std::vector<double> weights_;
  double total_weight_ = 0;
};

}  // namespace rankmap::graph
