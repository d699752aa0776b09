// A mapping under pairwise task swaps, with the objective updated incrementally (refine's engine).
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include "grid_search.hpp"

#include <memory>
#include <vector>

namespace rankmap::mapping::detail {

/// Channel loads in a max segment tree: a point update is O(log C) and the maximum O(1).
class MaxTree {
 public:
  explicit MaxTree(const std::vector<double>& values);
  double value(std::size_t i) const { return tree_[size_ + i]; }
  void set(std::size_t i, double v);
  double max() const { return tree_[1]; }
  std::size_t argmax() const;

 private:
  std::size_t size_ = 1;
  std::vector<double> tree_;
};

/// The current mapping, its objective and what a swap needs to be judged without recomputing
/// everything: a swap of tasks a and b re-routes only the flows of their edges. Under MCL the
/// per-channel loads sit in a MaxTree; a swap is kept if it lowers the MCL, or keeps it and
/// lowers the sum of squared loads (which steers the search off MCL plateaus). Under hop-bytes
/// a swap is kept if it lowers hop-bytes.
class SwapState {
 public:
  SwapState(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options,
            Mapping initial);
  ~SwapState();

  /// The objective of the current mapping as tracked incrementally.
  double objective() const;
  /// The objective of the initial mapping, computed from scratch by the metrics functions.
  double initial_objective() const noexcept { return initial_objective_; }
  /// The objective of the current mapping, computed from scratch by the metrics functions.
  double exact_objective() const;

  /// Swaps tasks a and b, which must be on different nodes, if that is an improvement.
  bool try_swap(TaskId a, TaskId b);

  const Mapping& mapping() const noexcept { return slot_of_; }
  TaskId task_at(SlotId s) const { return task_of_slot_[s]; }
  int node_of(TaskId t) const { return node_[t]; }
  /// Bytes between tasks in both directions, for choosing swap partners.
  const graph::CommGraph& neighbours() const noexcept { return sym_; }
  const NodeLookup& node_lookup() const noexcept { return lookup_; }
  /// Under MCL, the tasks with an edge whose route may cross the most loaded channel (all minimal
  /// paths are considered, so this is a superset for every routing model); recomputed when that
  /// channel changes. Under hop-bytes, empty.
  const std::vector<TaskId>& hot_tasks();

 private:
  void add_flow(int src, int dst, double bytes);
  bool try_swap_mcl(TaskId a, TaskId b);
  bool try_swap_hop_bytes(TaskId a, TaskId b);
  void swap(TaskId a, TaskId b);

  const graph::CommGraph& graph_;
  const topology::Allocation& alloc_;
  NodeLookup lookup_;
  graph::CommGraph sym_;
  graph::CommGraph in_;  ///< the transposed graph (MCL only)
  std::unique_ptr<topology::RoutingModel> routing_;
  Mapping slot_of_;
  std::vector<TaskId> task_of_slot_;
  std::vector<int> node_;
  std::vector<topology::Coords> coords_;  ///< of each dense node
  double initial_objective_ = 0;
  double hop_bytes_ = 0;
  std::unique_ptr<MaxTree> loads_;
  double sum_squares_ = 0;
  std::vector<double> delta_;
  std::vector<char> marked_;
  std::vector<ChannelId> touched_;
  std::vector<double> saved_;
  std::vector<topology::ChannelShare> shares_;
  struct Flow {
    int src, dst;
    double bytes;
  };
  std::vector<Flow> flows_;
  std::vector<TaskId> hot_;
  std::vector<char> is_hot_;
  ChannelId hot_channel_ = -1;
};

}  // namespace rankmap::mapping::detail
