// A mapping under pairwise task swaps, with the objective updated incrementally (the engine of
// refine and anneal).
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include "graph/in_edges.hpp"
#include "grid_search.hpp"
#include "max_tree.hpp"
#include "network_geometry.hpp"

#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace rankmap::mapping::detail {

/// How long a search on a state may run within `budget` (of `budget_ms`): the time left, less the
/// `evaluations` still to come (each about `each_ms`, as long as setting a state up took, with 10%
/// to spare), less 3% of the budget for what follows (a final check stops only between groups of flows).
inline double search_ms_left(const Deadline& budget, double budget_ms, double evaluations, double each_ms) {
  return budget.remaining_ms() - evaluations * 1.1 * each_ms - 0.03 * budget_ms;
}

/// The current mapping, its objective and what a swap needs to be judged without recomputing
/// everything: a swap of tasks a and b re-routes only the flows of their edges. Under MCL the
/// channel loads of each phase (MapOptions::phases; the graph alone is one phase) sit in a MaxTree,
/// the objective is the sum of the phases' MCLs, and hop-bytes (of the graph) are tracked
/// alongside. With the goal `objective` the order is lexicographic, and no phase's MCL may rise: a
/// swap is kept if it lowers some phase's MCL, or leaves every channel at or below its phase's MCL
/// and lowers hop-bytes, or also leaves hop-bytes unchanged and lowers the sum of squared loads
/// (which steers the search off MCL plateaus). With the goal `shorten` a swap is kept if it lowers
/// hop-bytes and leaves every channel at or below its phase's ceiling that set_goal() fixed. Under
/// hop-bytes a swap is kept if it lowers hop-bytes, whatever the goal.
class SwapState {
 public:
  /// The channel loads of the initial mapping under options.routing, routed already (by
  /// ObjectiveScorer, bit for bit as the state would), and how long that took.
  struct RoutedLoads {
    const std::vector<double>& loads;
    double ms;
  };
  /// Routes every flow of the initial mapping once, unless `routed` brings its loads (used under
  /// MCL without MapOptions::phases only). Gives up, leaving ready() false, if `deadline` passes
  /// meanwhile.
  SwapState(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options,
            Mapping initial, const Deadline& deadline, const RoutedLoads* routed = nullptr);
  ~SwapState();

  bool ready() const noexcept { return ready_; }

  enum class Goal { objective, shorten };
  /// Under `shorten` no channel load of phase p may rise above `ceilings[p]` (nor above the
  /// phase's current MCL if that is higher): some MCL is traded for shorter routes.
  void set_goal(Goal goal, std::vector<double> ceilings = {});
  /// The current MCL of every phase (under MCL).
  std::vector<double> phase_mcls() const;
  /// How long computing the initial objective took: about what exact_objective() costs.
  double evaluation_ms() const noexcept { return evaluation_ms_; }

  /// The objective of the current mapping as tracked incrementally.
  double objective() const;
  /// Hop-bytes of the current mapping, as tracked incrementally.
  double hop_bytes() const noexcept { return hop_bytes_; }
  /// The objective of the initial mapping, computed from scratch with the same sums, in the same
  /// order, as the metrics functions.
  double initial_objective() const noexcept { return initial_objective_; }
  /// The objective of the current mapping, computed from scratch by the metrics functions; nothing
  /// when `deadline` passes first (under MCL it is looked at between groups of flows).
  std::optional<double> exact_objective(const Deadline& deadline) const;

  /// Swaps tasks a and b, which must be on different nodes, if that is an improvement.
  bool try_swap(TaskId a, TaskId b);

  /// What annealing minimises. Under MCL: the sum of the phases' MCLs; plus, for each phase, its
  /// initial MCL times the share of channels at its MCL, so that taking one channel off the maximum
  /// counts where no MCL can drop yet; plus a small weight on the squared loads, which spreads
  /// traffic. Under hop-bytes: hop-bytes.
  double annealing_score() const;
  /// Scales the weight of the channels at the maximum in annealing_score() (1 at first): annealing
  /// lowers it as it cools, so that it ends on the objective itself.
  void scale_count_weight(double factor) { count_weight_factor_ = factor; }
  /// Swaps tasks a and b (on different nodes) if annealing_score() rises by at most `slack`. With
  /// slack = -T ln(u), u uniform in (0, 1], this is the Metropolis rule at temperature T.
  bool try_swap_within(TaskId a, TaskId b, double slack);

  const Mapping& mapping() const noexcept { return slot_of_; }
  TaskId task_at(SlotId s) const { return task_of_slot_[s]; }
  int node_of(TaskId t) const { return node_[t]; }
  /// A task t sends to or receives from, chosen by `pick` in 0..degree-1 of its out- then in-edges;
  /// -1 if t has no edges.
  template <typename Pick>
  TaskId some_neighbour(TaskId t, Pick&& pick) const {
    const auto out = graph_.out_neighbors(t);
    const std::size_t in = static_cast<std::size_t>(in_.offsets[t + 1] - in_.offsets[t]);
    if (out.empty() && in == 0) return -1;
    const std::size_t k = pick(out.size() + in);
    return k < out.size() ? out[k] : in_.sources[static_cast<std::size_t>(in_.offsets[t]) + k - out.size()];
  }
  /// Calls visit(x) for every task t sends to, then every task that sends to t.
  template <typename Visit>
  void for_each_neighbour(TaskId t, Visit&& visit) const {
    for (TaskId x : graph_.out_neighbors(t)) visit(x);
    for (std::int64_t k = in_.offsets[t]; k < in_.offsets[t + 1]; ++k) visit(in_.sources[k]);
  }
  const NodeLookup& node_lookup() const noexcept { return lookup_; }
  /// Under MCL, the tasks with an edge whose route may cross the most loaded channel of one phase
  /// (all minimal paths are considered, so this is a superset for every routing model). The phases
  /// take turns, one per call; each phase's set is recomputed when its hottest channel changes or
  /// a swap is kept. Under hop-bytes, empty.
  const std::vector<TaskId>& hot_tasks();

 private:
  /// The flows of one phase: its graph's edges, and the loads they put on every channel.
  struct Phase {
    Phase(const graph::CommGraph* g, const graph::InEdges* i) : graph(g), in(i) {}
    const graph::CommGraph* graph;
    const graph::InEdges* in;
    std::unique_ptr<MaxTree> loads;
    double inv_scale = 1;  ///< 1 / the phase's initial MCL
    double ceiling = 0;    ///< under `shorten`
    ChannelId hot_channel = -1;
    std::vector<TaskId> hot;
  };
  /// Adds a flow of phase p to delta_; false if a positive flow takes some channel above `ceiling`.
  bool add_flow(int p, int src, int dst, double bytes, double ceiling);
  /// Whether a hop-bytes change lowers them, past rounding.
  bool lowers_hop_bytes(double hop_delta) const;
  void initial_loads(const Deadline& deadline, const RoutedLoads* routed);
  template <typename Visit>
  void for_each_in_edge(const graph::InEdges& in, TaskId t, Visit&& visit) const;
  bool try_swap_mcl(TaskId a, TaskId b);
  void collect_flows(int p, TaskId a, TaskId b);
  /// The hop-bytes change of swapping a and b, from their edges alone.
  double hop_bytes_change(TaskId a, TaskId b) const;
  bool judge_and_apply(double hop_delta);
  /// Channel c of phase p in delta_ and marked_, and back.
  ChannelId phased_channel(std::size_t p, ChannelId c) const { return static_cast<ChannelId>(p) * channels_ + c; }
  double load(ChannelId phased) const;
  void set_load(ChannelId phased, double value);
  /// No channel of phase p may go above this: its MCL, or under `shorten` the ceiling set_goal() fixed.
  double load_ceiling(const Phase& phase) const;
  bool try_swap_hop_bytes(TaskId a, TaskId b);
  double annealing_score(double sum_squares) const;
  struct LoadChange {
    double penalty = 0;  ///< of sum_penalty_
    double squares = 0;  ///< of sum_squares_
  };
  /// Routes the flows of a and b that a swap changes into delta_ (no ceiling) and applies them to
  /// the trees; undo_loads() puts the loads back.
  LoadChange apply_swap_loads(TaskId a, TaskId b);
  /// Adds delta_ to the loads of the touched channels, saving the old ones for undo_loads().
  void apply_loads();
  void undo_loads();
  void clear_delta();
  void swap(TaskId a, TaskId b);
  void find_hot_tasks(Phase& phase);
  /// find_hot_tasks() on a fat-tree or dragonfly (swap_state_network.cpp).
  void find_hot_tasks_off_grid(Phase& phase);

  const graph::CommGraph& graph_;
  const topology::Allocation& alloc_;
  NodeLookup lookup_;
  DenseHops hops_;
  graph::InEdges in_;
  std::vector<graph::InEdges> phase_in_;            ///< of options.phases
  std::vector<Phase> phases_;                       ///< under MCL
  std::span<const graph::CommGraph> phase_graphs_;  ///< options.phases, or the graph alone
  ChannelId channels_ = 0;                          ///< per phase; channel c of phase p is p * channels_ + c in delta_
  int hot_phase_ = 0;                               ///< the phase hot_tasks() looks at next
  bool ready_ = false;
  Goal goal_ = Goal::objective;
  double evaluation_ms_ = 0;
  std::shared_ptr<const topology::RoutingModel> routing_;
  Mapping slot_of_;
  std::vector<TaskId> task_of_slot_;
  std::vector<int> node_;
  std::vector<topology::Coords> coords_;  ///< of each dense node, on a grid
  double initial_objective_ = 0;
  double hop_bytes_ = 0;
  double sum_penalty_ = 0;
  double sum_squares_ = 0;  ///< of every phase's channel loads, for annealing_score()
  double load_scale_ = 1;   ///< bytes of all the phases per channel, for annealing_score()
  double count_weight_factor_ = 1;
  /// The tie-breaker under MCL: squared loads (relative to the phase's initial MCL) favour spreading
  /// traffic without lengthening it much; higher powers gained about 1% in MCL for 10% in hop-bytes.
  static double penalty(const Phase& phase, double load) {
    const double x = load * phase.inv_scale;
    return x * x;
  }
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
  std::vector<char> is_hot_;
  std::vector<TaskId> no_hot_tasks_;
};

}  // namespace rankmap::mapping::detail
