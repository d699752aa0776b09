// Incremental objective bookkeeping for pairwise swaps: re-routing two tasks' flows, channel loads
// in max trees, hop-bytes, and the tasks that may load the hottest channel.
#include "swap_state.hpp"

#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include <algorithm>
#include <chrono>
#include <limits>

namespace rankmap::mapping::detail {

namespace {

/// The weights, in annealing_score(), of a channel at its phase's MCL and of the squared loads,
/// against the bytes per channel. A channel off the maximum is worth about 1/1000 of a whole flow
/// of NAS-BT's sweep on torus:8x8x8, where these were tuned: enough to let an MCL rise in one phase
/// if that frees hundreds of channels, which is how the search leaves the identity's plateaus. On a
/// training set of other sweeps, without either term the search barely left its start
/// (bench/anneal_tuning.py; docs/algorithms.md, anneal).
constexpr double kCountWeight = 1.7;
constexpr double kSquaresWeight = 0.3;

/// Nodes within this many hops of the hottest channel are searched first for tasks loading it;
/// after a good initial mapping most flows are short, so these are usually all of them.
constexpr int kHotRadius = 2;

/// True if some minimal path from s to t leaves node u along dimension d in direction dir.
bool may_cross(const topology::Grid& g, const topology::Coords& s, const topology::Coords& t, const topology::Coords& u,
               int d, topology::Direction dir) {
  for (int e = 0; e < g.ndims(); ++e) {
    const int k = g.extent(e);
    const int off = g.offset(s[e], t[e], e);
    const bool tie = g.is_tie(s[e], t[e], e);
    const int ahead = g.is_torus(e) ? ((u[e] - s[e]) % k + k) % k : u[e] - s[e];
    const int behind = g.is_torus(e) ? (k - ahead) % k : -ahead;
    if (e != d) {
      const bool inside = tie || (off >= 0 ? ahead >= 0 && ahead <= off : behind >= 0 && behind <= -off);
      if (!inside) return false;
    } else if (dir == topology::Direction::plus) {
      if (!((off > 0 || tie) && ahead >= 0 && ahead < (tie ? k / 2 : off))) return false;
    } else {
      if (!((off < 0 || tie) && behind >= 0 && behind < (tie ? k / 2 : -off))) return false;
    }
  }
  return true;
}

}  // namespace

SwapState::SwapState(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options,
                     Mapping initial, const Deadline& deadline, const RoutedLoads* routed)
    : graph_(graph), alloc_(alloc), lookup_(alloc), hops_(alloc), in_(graph), slot_of_(std::move(initial)) {
  task_of_slot_ = inverse(slot_of_);
  node_.resize(slot_of_.size());
  for (std::size_t t = 0; t < slot_of_.size(); ++t) node_[t] = alloc.node_index_of_slot(slot_of_[t]);
  if (const topology::Grid* grid = alloc.network().grid_if())
    for (int i = 0; i < alloc.num_nodes(); ++i) coords_.push_back(grid->coords_of(alloc.node(i)));
  is_hot_.assign(slot_of_.size(), 0);
  if (options.objective != Objective::mcl || !options.phases.empty()) routed = nullptr;  // loads of the one phase
  const auto start = std::chrono::steady_clock::now();
  if (options.objective == Objective::hop_bytes) {
    hop_bytes_ = initial_objective_ = metrics::hop_bytes(graph, alloc, slot_of_);
    ready_ = true;
  } else {
    routing_ = topology::shared_routing_model(alloc.network(), options.routing);
    hop_bytes_ = metrics::hop_bytes(graph, alloc, slot_of_);
    phase_graphs_ = metrics::phases_or_whole(graph, options.phases);
    if (options.phases.empty()) phases_.emplace_back(&graph, &in_);
    phase_in_.reserve(options.phases.size());
    for (const graph::CommGraph& phase : options.phases) {
      phase_in_.emplace_back(phase);
      phases_.emplace_back(&phase, &phase_in_.back());
    }
    initial_loads(deadline, routed);
  }
  evaluation_ms_ =
      routed ? routed->ms : std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The loads come from metrics::channel_loads, as exact_objective()'s and the scorer's do, so that
// the three agree bit for bit.
void SwapState::initial_loads(const Deadline& deadline, const RoutedLoads* routed) {
  channels_ = alloc_.network().num_channel_slots();
  initial_objective_ = 0;
  double bytes = 0;
  for (const Phase& phase : phases_) bytes += phase.graph->total_weight();
  load_scale_ = std::max(bytes / static_cast<double>(channels_), 1.0);
  for (Phase& phase : phases_) {
    const auto passed = [&deadline] { return deadline.passed(); };
    std::optional<std::vector<double>> loads =
        routed ? std::optional(routed->loads)
               : metrics::channel_loads(*phase.graph, alloc_, slot_of_, *routing_, passed);
    if (!loads) return;
    const double mcl = metrics::max_channel_load(*loads);
    initial_objective_ += mcl;
    phase.inv_scale = mcl > 0 ? 1.0 / mcl : 1.0;
    for (double l : *loads) sum_penalty_ += penalty(phase, l), sum_squares_ += l * l;
    phase.loads = std::make_unique<MaxTree>(std::move(*loads));
  }
  delta_.assign(static_cast<std::size_t>(channels_) * phases_.size(), 0.0);
  marked_.assign(delta_.size(), 0);
  ready_ = true;
}

template <typename Visit>
void SwapState::for_each_in_edge(const graph::InEdges& in, TaskId t, Visit&& visit) const {
  for (std::int64_t k = in.offsets[t]; k < in.offsets[t + 1]; ++k) visit(in.sources[k], in.weights[k]);
}

SwapState::~SwapState() = default;

void SwapState::set_goal(Goal goal, std::vector<double> ceilings) {
  goal_ = goal;
  for (std::size_t p = 0; p < phases_.size(); ++p) phases_[p].ceiling = p < ceilings.size() ? ceilings[p] : 0;
}

std::vector<double> SwapState::phase_mcls() const {
  std::vector<double> mcls;
  for (const Phase& phase : phases_) mcls.push_back(phase.loads->max());
  return mcls;
}

double SwapState::load_ceiling(const Phase& phase) const {
  return goal_ == Goal::shorten ? std::max(phase.loads->max(), phase.ceiling) : phase.loads->max();
}

double SwapState::objective() const {
  if (!routing_) return hop_bytes_;
  double sum = 0;
  for (const Phase& phase : phases_) sum += phase.loads->max();
  return sum;
}

std::optional<double> SwapState::exact_objective(const Deadline& deadline) const {
  if (!routing_) return metrics::hop_bytes(graph_, alloc_, slot_of_);
  return metrics::phased_max_channel_load(phase_graphs_, alloc_, slot_of_, *routing_,
                                          [&deadline] { return deadline.passed(); });
}

bool SwapState::try_swap(TaskId a, TaskId b) { return routing_ ? try_swap_mcl(a, b) : try_swap_hop_bytes(a, b); }

double SwapState::hop_bytes_change(TaskId a, TaskId b) const {
  const int na = node_[a], nb = node_[b];
  // Edges between a and b keep their length; every other edge of a or b changes one end.
  // The sum runs through a local: through a reference to the caller's, the compiler stored and
  // reloaded it at every edge, since a weight might alias it.
  const auto moved = [&](TaskId t, TaskId other, int from, int to, double delta) {
    const auto change = [&](TaskId x, double w) {
      if (x == other || x == t) return;
      delta += w * hops_.change(from, to, node_[x]);
    };
    const auto targets = graph_.out_neighbors(t);
    const auto weights = graph_.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k) change(targets[k], weights[k]);
    for_each_in_edge(in_, t, change);
    return delta;
  };
  return moved(b, a, nb, na, moved(a, b, na, nb, 0.0));
}

bool SwapState::try_swap_hop_bytes(TaskId a, TaskId b) {
  const double delta = hop_bytes_change(a, b);
  if (!lowers_hop_bytes(delta)) return false;
  hop_bytes_ += delta;
  swap(a, b);
  return true;
}

double SwapState::annealing_score() const { return annealing_score(sum_squares_); }

// Counts and squares are weighed alike in every phase, against the bytes per channel of all the
// phases: a mapping-independent scale, so that scores of different states compare, and the same
// per channel for a phase with a low MCL as for one with a high MCL.
double SwapState::annealing_score(double sum_squares) const {
  if (!routing_) return hop_bytes_;
  double score = 0, at_max = 0;
  for (const Phase& phase : phases_) {
    score += phase.loads->max();
    at_max += static_cast<double>(phase.loads->count_at_max());
  }
  const double per_channel = load_scale_ / static_cast<double>(channels_);
  return score + per_channel * (kCountWeight * count_weight_factor_ * at_max +
                                kSquaresWeight * sum_squares / (load_scale_ * load_scale_));
}

bool SwapState::try_swap_within(TaskId a, TaskId b, double slack) {
  if (!routing_) {
    const double delta = hop_bytes_change(a, b);
    if (delta > slack) return false;
    hop_bytes_ += delta;
    swap(a, b);
    return true;
  }
  const double before = annealing_score();
  const LoadChange change = apply_swap_loads(a, b);
  const bool kept = annealing_score(sum_squares_ + change.squares) <= before + slack;
  if (kept) {
    sum_penalty_ += change.penalty;
    sum_squares_ += change.squares;
    hop_bytes_ += hop_bytes_change(a, b);
    swap(a, b);
  } else {
    undo_loads();
  }
  clear_delta();
  return kept;
}

SwapState::LoadChange SwapState::apply_swap_loads(TaskId a, TaskId b) {
  constexpr double no_ceiling = std::numeric_limits<double>::infinity();
  for (int p = 0; p < static_cast<int>(phases_.size()); ++p) {
    collect_flows(p, a, b);
    for (const Flow& f : flows_) add_flow(p, f.src, f.dst, f.bytes, no_ceiling);
  }
  LoadChange change;
  for (ChannelId c : touched_) {
    const Phase& phase = phases_[static_cast<std::size_t>(c / channels_)];
    const double old = load(c);
    const double now = old + delta_[c];
    change.penalty += penalty(phase, now) - penalty(phase, old);
    change.squares += now * now - old * old;
  }
  apply_loads();
  return change;
}

void SwapState::apply_loads() {
  saved_.clear();
  for (ChannelId c : touched_) {
    saved_.push_back(load(c));
    set_load(c, saved_.back() + delta_[c]);
  }
}

void SwapState::undo_loads() {
  for (std::size_t i = 0; i < touched_.size(); ++i) set_load(touched_[i], saved_[i]);
}

void SwapState::clear_delta() {
  for (ChannelId c : touched_) delta_[c] = 0, marked_[c] = 0;
  touched_.clear();
}

// Flows between the same two nodes are routed once (a removed and an added flow often cancel),
// removals first: then every added flow only raises loads, and the swap is dropped as soon as one
// of them pushes a channel above its phase's ceiling, before the rest are routed. Under `shorten`
// only a swap that lowers hop-bytes can be kept, and hop-bytes need no routing, so the others are
// dropped first: after the hop-bytes descent most swaps do not lower them, and routing those took
// most of refine's time on scattered nodes, where a flow crosses hundreds of channels under adaptive
// routing.
bool SwapState::try_swap_mcl(TaskId a, TaskId b) {
  const bool shorten = goal_ == Goal::shorten;
  const double early_hop_delta = shorten ? hop_bytes_change(a, b) : 0;
  if (shorten && !lowers_hop_bytes(early_hop_delta)) return false;
  bool fits = true;
  for (int p = 0; fits && p < static_cast<int>(phases_.size()); ++p) {
    collect_flows(p, a, b);
    const double ceiling = load_ceiling(phases_[p]);
    for (const Flow& f : flows_)
      if (!(fits = add_flow(p, f.src, f.dst, f.bytes, ceiling))) break;
  }
  const bool better = fits && judge_and_apply(shorten ? early_hop_delta : hop_bytes_change(a, b));
  clear_delta();
  if (better) swap(a, b);
  return better;
}

// Hop-bytes changes are sums of bytes times whole hops, exact for integer byte counts: the
// tolerance only absorbs rounding with fractional ones.
bool SwapState::lowers_hop_bytes(double hop_delta) const { return hop_delta < -1e-12 * hop_bytes_; }

/// flows_: phase p's flows that swapping a and b changes, merged per node pair, removals first.
void SwapState::collect_flows(int p, TaskId a, TaskId b) {
  const Phase& phase = phases_[p];
  const int na = node_[a], nb = node_[b];
  const auto node_after = [&](TaskId t) { return t == a ? nb : t == b ? na : node_[t]; };
  flows_.clear();
  const auto edge = [&](TaskId src, TaskId dst, double w) {
    if (node_[src] != node_[dst]) flows_.push_back({node_[src], node_[dst], -w});
    if (node_after(src) != node_after(dst)) flows_.push_back({node_after(src), node_after(dst), w});
  };
  const auto edges_of = [&](TaskId t, TaskId skip) {  // skip: the other task, whose edges to t are already in
    const auto targets = phase.graph->out_neighbors(t);
    const auto weights = phase.graph->out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k)
      if (targets[k] != skip) edge(t, targets[k], weights[k]);
    for_each_in_edge(*phase.in, t, [&](TaskId x, double w) {
      if (x != skip) edge(x, t, w);
    });
  };
  edges_of(a, -1);
  edges_of(b, a);
  std::sort(flows_.begin(), flows_.end(),
            [](const Flow& x, const Flow& y) { return x.src != y.src ? x.src < y.src : x.dst < y.dst; });
  std::size_t merged = 0;
  for (std::size_t i = 0; i < flows_.size();) {
    Flow f = flows_[i];
    for (++i; i < flows_.size() && flows_[i].src == f.src && flows_[i].dst == f.dst; ++i) f.bytes += flows_[i].bytes;
    if (f.bytes != 0) flows_[merged++] = f;
  }
  flows_.resize(merged);
  std::stable_partition(flows_.begin(), flows_.end(), [](const Flow& f) { return f.bytes < 0; });
}

// Most rejected swaps push some channel above the ceiling, which the loads alone show; and when
// no phase's hottest channel is touched no MCL can drop, so only hop-bytes and the squared loads
// decide. The trees are updated only when the swap is kept or some hottest channel is among those
// it changes.
bool SwapState::judge_and_apply(double hop_delta) {
  const double old_objective = objective();
  double penalty_delta = 0, squares_delta = 0;
  for (ChannelId c : touched_) {
    const Phase& phase = phases_[static_cast<std::size_t>(c / channels_)];
    const double old = load(c);
    const double now = old + delta_[c];
    if (now > load_ceiling(phase)) return false;
    penalty_delta += penalty(phase, now) - penalty(phase, old);
    squares_delta += now * now - old * old;
  }
  const bool raises_hop_bytes = lowers_hop_bytes(-hop_delta);
  const bool secondary_drops = lowers_hop_bytes(hop_delta) || (goal_ == Goal::objective && !raises_hop_bytes &&
                                                               penalty_delta < -1e-12 * sum_penalty_);
  bool hottest_touched = false;
  for (std::size_t p = 0; p < phases_.size() && !hottest_touched; ++p)
    hottest_touched = marked_[phased_channel(p, static_cast<ChannelId>(phases_[p].loads->argmax()))];
  if (!hottest_touched && !secondary_drops) return false;
  apply_loads();
  const double new_objective = objective();
  if ((goal_ == Goal::objective && new_objective < old_objective - 1e-12 * old_objective) || secondary_drops) {
    sum_penalty_ += penalty_delta;
    sum_squares_ += squares_delta;
    hop_bytes_ += hop_delta;
    return true;
  }
  undo_loads();
  return false;
}

double SwapState::load(ChannelId phased) const {
  const MaxTree& loads = *phases_[static_cast<std::size_t>(phased / channels_)].loads;
  return loads.value(static_cast<std::size_t>(phased % channels_));
}

void SwapState::set_load(ChannelId phased, double value) {
  MaxTree& loads = *phases_[static_cast<std::size_t>(phased / channels_)].loads;
  loads.set(static_cast<std::size_t>(phased % channels_), value);
}

bool SwapState::add_flow(int p, int src, int dst, double bytes, double ceiling) {
  const MaxTree& loads = *phases_[p].loads;
  bool fits = true;
  shares_.clear();
  routing_->route_loads(alloc_.node(src), alloc_.node(dst), shares_);
  for (const topology::ChannelShare& s : shares_) {
    const ChannelId c = phased_channel(static_cast<std::size_t>(p), s.channel);
    if (!marked_[c]) marked_[c] = 1, touched_.push_back(c);
    delta_[c] += bytes * s.fraction;
    if (bytes > 0 && loads.value(static_cast<std::size_t>(s.channel)) + delta_[c] > ceiling) fits = false;
  }
  return fits;
}

void SwapState::swap(TaskId a, TaskId b) {
  const SlotId sa = slot_of_[a], sb = slot_of_[b];
  slot_of_[a] = sb;
  slot_of_[b] = sa;
  task_of_slot_[sa] = b;
  task_of_slot_[sb] = a;
  std::swap(node_[a], node_[b]);
  for (Phase& phase : phases_) phase.hot_channel = -1;  // the swapped tasks' edges may now load the hottest channel
}

const std::vector<TaskId>& SwapState::hot_tasks() {
  if (!routing_) return no_hot_tasks_;
  Phase& phase = phases_[static_cast<std::size_t>(hot_phase_)];
  hot_phase_ = (hot_phase_ + 1) % static_cast<int>(phases_.size());
  if (static_cast<ChannelId>(phase.loads->argmax()) != phase.hot_channel) find_hot_tasks(phase);
  return phase.hot;
}

void SwapState::find_hot_tasks(Phase& phase) {
  const ChannelId c = static_cast<ChannelId>(phase.loads->argmax());
  phase.hot_channel = c;
  phase.hot.clear();
  if (phase.loads->max() <= 0) return;
  if (!alloc_.network().is_grid()) return find_hot_tasks_off_grid(phase);
  const topology::Grid& grid = alloc_.grid();
  const topology::Coords u = grid.coords_of(grid.channel_source(c));
  const int d = grid.channel_dim(c);
  const topology::Direction dir = grid.channel_direction(c);
  const auto check = [&](TaskId t) {
    const auto flow = [&](TaskId src, TaskId dst) {
      const int from = node_[src], to = node_[dst];
      if (from == to || !may_cross(grid, coords_[from], coords_[to], u, d, dir)) return;
      for (TaskId y : {src, dst})
        if (!is_hot_[y]) is_hot_[y] = 1, phase.hot.push_back(y);
    };
    for (TaskId x : phase.graph->out_neighbors(t)) flow(t, x);
    for_each_in_edge(*phase.in, t, [&](TaskId x, double) { flow(x, t); });
  };
  RingWalker walker(grid, u);
  for (int r = 0; r <= kHotRadius; ++r)
    walker.walk(r, [&](NodeId node, const topology::Coords&) {
      const int i = lookup_(node);
      if (i >= 0)
        for (SlotId s : alloc_.slots_of_node(i)) check(task_of_slot_[s]);
      return true;
    });
  if (phase.hot.empty())
    for (TaskId t = 0; t < graph_.num_tasks(); ++t) check(t);
  for (TaskId t : phase.hot) is_hot_[t] = 0;
}

}  // namespace rankmap::mapping::detail
