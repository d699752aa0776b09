// Incremental objective bookkeeping for pairwise swaps: re-routing two tasks' flows, a max tree of
// channel loads, and the tasks that may load the hottest channel.
#include "swap_state.hpp"


#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include <algorithm>
#include <limits>

namespace rankmap::mapping::detail {

namespace {

/// Nodes within this many hops of the hottest channel are searched first for tasks loading it;
/// after a good initial mapping most flows are short, so these are usually all of them.
constexpr int kHotRadius = 2;

/// True if some minimal path from s to t leaves node u along dimension d in direction dir.
bool may_cross(const topology::Grid& g, const topology::Coords& s, const topology::Coords& t,
               const topology::Coords& u, int d, topology::Direction dir) {
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

MaxTree::MaxTree(const std::vector<double>& values) {
  while (size_ < values.size()) size_ *= 2;
  tree_.assign(2 * size_, -std::numeric_limits<double>::infinity());
  std::copy(values.begin(), values.end(), tree_.begin() + static_cast<std::ptrdiff_t>(size_));
  for (std::size_t i = size_ - 1; i >= 1; --i) tree_[i] = std::max(tree_[2 * i], tree_[2 * i + 1]);
}

void MaxTree::set(std::size_t i, double v) {
  i += size_;
  tree_[i] = v;
  for (i /= 2; i >= 1; i /= 2) {
    const double m = std::max(tree_[2 * i], tree_[2 * i + 1]);
    if (tree_[i] == m) break;  // nothing above changes
    tree_[i] = m;
  }
}

std::size_t MaxTree::argmax() const {
  std::size_t i = 1;
  while (i < size_) i = tree_[2 * i] >= tree_[2 * i + 1] ? 2 * i : 2 * i + 1;
  return i - size_;
}

SwapState::SwapState(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options,
                     Mapping initial)
    : graph_(graph), alloc_(alloc), lookup_(alloc), sym_(graph.symmetrized()), slot_of_(std::move(initial)) {
  task_of_slot_ = inverse(slot_of_);
  node_.resize(slot_of_.size());
  for (std::size_t t = 0; t < slot_of_.size(); ++t) node_[t] = alloc.node_index_of_slot(slot_of_[t]);
  coords_.resize(static_cast<std::size_t>(alloc.num_nodes()));
  for (int i = 0; i < alloc.num_nodes(); ++i) coords_[i] = alloc.grid().coords_of(alloc.node(i));
  is_hot_.assign(slot_of_.size(), 0);
  if (options.objective == Objective::hop_bytes) {
    hop_bytes_ = initial_objective_ = metrics::hop_bytes(graph, alloc, slot_of_);
    return;
  }
  routing_ = topology::make_routing_model(alloc.grid(), options.routing);
  in_ = graph.transposed();
  const std::vector<double> loads = metrics::channel_loads(graph, alloc, slot_of_, *routing_);
  initial_objective_ = metrics::max_channel_load(loads);
  for (double l : loads) sum_squares_ += l * l;
  loads_ = std::make_unique<MaxTree>(loads);
  delta_.assign(loads.size(), 0.0);
  marked_.assign(loads.size(), 0);
}

SwapState::~SwapState() = default;

double SwapState::objective() const { return routing_ ? loads_->max() : hop_bytes_; }

double SwapState::exact_objective() const {
  return routing_ ? metrics::max_channel_load(graph_, alloc_, slot_of_, *routing_)
                  : metrics::hop_bytes(graph_, alloc_, slot_of_);
}

bool SwapState::try_swap(TaskId a, TaskId b) { return routing_ ? try_swap_mcl(a, b) : try_swap_hop_bytes(a, b); }

bool SwapState::try_swap_hop_bytes(TaskId a, TaskId b) {
  const topology::Grid& grid = alloc_.grid();
  const int na = node_[a], nb = node_[b];
  double delta = 0;
  const auto moved = [&](TaskId t, TaskId other, int from, int to) {
    const auto targets = sym_.out_neighbors(t);
    const auto weights = sym_.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k) {
      if (targets[k] == other) continue;  // the a-b edge keeps its length
      const topology::Coords& x = coords_[node_[targets[k]]];
      delta += weights[k] * (hops_between(grid, coords_[to], x) - hops_between(grid, coords_[from], x));
    }
  };
  moved(a, b, na, nb);
  moved(b, a, nb, na);
  if (!(delta < -1e-12 * hop_bytes_)) return false;
  hop_bytes_ += delta;
  swap(a, b);
  return true;
}

bool SwapState::try_swap_mcl(TaskId a, TaskId b) {
  const int na = node_[a], nb = node_[b];
  const auto node_after = [&](TaskId t) { return t == a ? nb : t == b ? na : node_[t]; };
  flows_.clear();
  const auto edge = [&](TaskId src, TaskId dst, double w) {
    if (node_[src] != node_[dst]) flows_.push_back({node_[src], node_[dst], -w});
    if (node_after(src) != node_after(dst)) flows_.push_back({node_after(src), node_after(dst), w});
  };
  const auto edges_of = [&](TaskId t, TaskId skip) {  // skip: the other task, whose edges to t are already in
    auto targets = graph_.out_neighbors(t);
    auto weights = graph_.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k)
      if (targets[k] != skip) edge(t, targets[k], weights[k]);
    targets = in_.out_neighbors(t);
    weights = in_.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k)
      if (targets[k] != skip) edge(targets[k], t, weights[k]);
  };
  edges_of(a, -1);
  edges_of(b, a);
  // Flows between the same two nodes are routed once; a removed and an added flow often cancel.
  std::sort(flows_.begin(), flows_.end(),
            [](const Flow& x, const Flow& y) { return x.src != y.src ? x.src < y.src : x.dst < y.dst; });
  for (std::size_t i = 0; i < flows_.size();) {
    double bytes = 0;
    std::size_t j = i;
    for (; j < flows_.size() && flows_[j].src == flows_[i].src && flows_[j].dst == flows_[i].dst; ++j)
      bytes += flows_[j].bytes;
    if (bytes != 0) add_flow(flows_[i].src, flows_[i].dst, bytes);
    i = j;
  }
  const double old_max = loads_->max();
  double squares_delta = 0;
  saved_.clear();
  for (ChannelId c : touched_) {
    const double old = loads_->value(static_cast<std::size_t>(c));
    const double now = old + delta_[c];
    squares_delta += now * now - old * old;
    saved_.push_back(old);
    loads_->set(static_cast<std::size_t>(c), now);
  }
  const double new_max = loads_->max();
  const bool better = new_max < old_max - 1e-12 * old_max ||
                      (new_max <= old_max && squares_delta < -1e-12 * sum_squares_);
  for (std::size_t i = 0; i < touched_.size(); ++i) {
    if (!better) loads_->set(static_cast<std::size_t>(touched_[i]), saved_[i]);
    delta_[touched_[i]] = 0;
    marked_[touched_[i]] = 0;
  }
  touched_.clear();
  if (!better) return false;
  sum_squares_ += squares_delta;
  swap(a, b);
  return true;
}

void SwapState::add_flow(int src, int dst, double bytes) {
  const topology::Grid& grid = alloc_.grid();
  shares_.clear();
  routing_->route(alloc_.node(src), alloc_.node(dst), shares_);
  for (const topology::ChannelShare& s : shares_) {
    if (!marked_[s.channel]) marked_[s.channel] = 1, touched_.push_back(s.channel);
    delta_[s.channel] += bytes * s.fraction / grid.capacity(grid.channel_dim(s.channel));
  }
}

void SwapState::swap(TaskId a, TaskId b) {
  const SlotId sa = slot_of_[a], sb = slot_of_[b];
  slot_of_[a] = sb;
  slot_of_[b] = sa;
  task_of_slot_[sa] = b;
  task_of_slot_[sb] = a;
  std::swap(node_[a], node_[b]);
  hot_channel_ = -1;  // the swapped tasks' edges may now load the hottest channel
}

const std::vector<TaskId>& SwapState::hot_tasks() {
  if (!routing_) return hot_;
  const ChannelId c = static_cast<ChannelId>(loads_->argmax());
  if (c == hot_channel_) return hot_;
  hot_channel_ = c;
  for (TaskId t : hot_) is_hot_[t] = 0;
  hot_.clear();
  if (loads_->max() <= 0) return hot_;
  const topology::Grid& grid = alloc_.grid();
  const topology::Coords u = grid.coords_of(grid.channel_source(c));
  const int d = grid.channel_dim(c);
  const topology::Direction dir = grid.channel_direction(c);
  const auto check = [&](TaskId t) {
    const auto visit = [&](const graph::CommGraph& g, bool outgoing) {
      for (TaskId x : g.out_neighbors(t)) {
        const int from = outgoing ? node_[t] : node_[x], to = outgoing ? node_[x] : node_[t];
        if (from == to || !may_cross(grid, coords_[from], coords_[to], u, d, dir)) continue;
        for (TaskId y : {t, x})
          if (!is_hot_[y]) is_hot_[y] = 1, hot_.push_back(y);
      }
    };
    visit(graph_, true);
    visit(in_, false);
  };
  RingWalker walker(grid, u);
  for (int r = 0; r <= kHotRadius; ++r)
    walker.walk(r, [&](NodeId node, const topology::Coords&) {
      const int i = lookup_(node);
      if (i >= 0)
        for (SlotId s : alloc_.slots_of_node(i)) check(task_of_slot_[s]);
      return true;
    });
  if (hot_.empty())
    for (TaskId t = 0; t < graph_.num_tasks(); ++t) check(t);
  return hot_;
}

}  // namespace rankmap::mapping::detail
