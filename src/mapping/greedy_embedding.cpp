// The greedy engine of mahd, emahd and gge: one run places every item, nearest to its target first.
#include "greedy_embedding.hpp"

#include "network_geometry.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

namespace rankmap::mapping::detail {

namespace {

struct HeapEntry {
  double bytes;     ///< to placed items when pushed
  int neighbours;   ///< placed neighbours when pushed
  double total;     ///< all the item's bytes
  /// Under GreedyVariant::from_centre, when it was pushed (later wins); 0 otherwise, leaving ties to
  /// the id.
  long long pushed;
  TaskId item;
  friend bool operator<(const HeapEntry& a, const HeapEntry& b) {  // the top is the largest
    if (a.bytes != b.bytes) return a.bytes < b.bytes;
    if (a.neighbours != b.neighbours) return a.neighbours < b.neighbours;
    if (a.total != b.total) return a.total < b.total;
    if (a.pushed != b.pushed) return a.pushed < b.pushed;
    return a.item > b.item;
  }
};

void check_feasible(const PlacementProblem& p) {
  std::map<int, long long> balance;  // capacity minus demand per size, or in total
  for (int c : p.capacity) balance[p.exact_fit ? c : 0] += c;
  for (int d : p.demand) {
    if (!p.exact_fit && d != 1) throw std::logic_error("greedy placement: shared nodes need items of demand 1");
    balance[p.exact_fit ? d : 0] -= d;
  }
  for (const auto& [size, left] : balance)
    if (left < 0) throw std::logic_error("greedy placement: the items do not fit the nodes");
}

/// Hops from `source` to every item over the graph's edges; -1 for items it cannot reach.
std::vector<int> bfs_hops(const graph::CommGraph& g, TaskId source) {
  std::vector<int> hops(static_cast<std::size_t>(g.num_tasks()), -1);
  std::vector<TaskId> frontier{source};
  hops[source] = 0;
  for (std::size_t head = 0; head < frontier.size(); ++head)
    for (TaskId x : g.out_neighbors(frontier[head]))
      if (hops[x] < 0) hops[x] = hops[frontier[head]] + 1, frontier.push_back(x);
  return hops;
}

/// Among the busiest items (equal bytes and degree to items_by_weight[0]), the one nearest the
/// graph's centre. Many graphs have whole classes of such items (every inner point of a stencil),
/// and the first of them by id sits at a corner of the task grid: placed on the most central node,
/// that corner makes the rest of the grid fold around it. The centre is estimated by a double
/// sweep (breadth-first from the first item to the farthest item u, from u to the farthest v), an
/// item's distance from it as max(hops to u, hops to v); ties go to the earlier item.
TaskId most_central_item(const graph::CommGraph& g, const std::vector<TaskId>& items_by_weight,
                         const std::vector<double>& weight) {
  const auto farthest = [](const std::vector<int>& hops) {
    return static_cast<TaskId>(std::max_element(hops.begin(), hops.end()) - hops.begin());
  };
  const TaskId first = items_by_weight.front();
  const std::vector<int> from_u = bfs_hops(g, farthest(bfs_hops(g, first)));
  const std::vector<int> from_v = bfs_hops(g, farthest(from_u));
  const double busiest = weight[first];
  TaskId best = first;
  int best_distance = std::max(from_u[first], from_v[first]);
  for (TaskId t : items_by_weight) {
    if (weight[t] != busiest || g.out_degree(t) != g.out_degree(first)) break;
    const int distance = std::max(from_u[t], from_v[t]);
    if (from_u[t] >= 0 && distance < best_distance) best = t, best_distance = distance;
  }
  return best;
}

}  // namespace

/// The state of one placement run; GreedyPlacer::place() creates one per call.
class GreedyRun {
 public:
  GreedyRun(const GreedyPlacer& placer, GreedyVariant variant);
  Placement run(int start_node, const Deadline* deadline);

 private:
  bool fits(int node, TaskId item) const {
    const PlacementProblem& p = placer_.problem_;
    if (p.exact_fit) return free_[node] == p.capacity[node] && p.capacity[node] == p.demand[item];
    return free_[node] >= p.demand[item];
  }
  TaskId next_item();
  TaskId next_component_start();
  int choose_node(TaskId item, int start_node);
  void gather_anchors(TaskId item);
  int search(TaskId item);
  int scan_open(TaskId item, const topology::Coords& center);
  void place(TaskId item, int node);
  void fill_in_node_order();

  const GreedyPlacer& placer_;
  const graph::CommGraph& graph_;
  const topology::Grid* grid_;  ///< nullptr off grids, where levels_ searches instead of cost_ and rings
  std::vector<int> node_of_item_;
  std::vector<int> free_;
  std::vector<int> open_, open_pos_;  ///< nodes that can still take an item, and where each sits in open_
  std::vector<HeapEntry> heap_;
  GreedyVariant variant_;
  long long pushes_ = 0;
  std::vector<double> bytes_to_placed_;
  std::vector<int> placed_neighbours_;
  std::deque<TaskId> queue_;
  std::vector<char> discovered_;
  std::vector<TaskId> last_neighbour_;
  std::size_t start_cursor_ = 0;
  int last_node_ = -1;
  std::vector<int> anchor_index_;  ///< per node: its entry in anchors_, or -1
  std::vector<int> touched_;
  std::vector<Anchor> anchors_;
  std::optional<AnchorCost> cost_;
  LevelSearch levels_;
  std::vector<std::pair<double, TaskId>> by_weight_;
};

GreedyRun::GreedyRun(const GreedyPlacer& placer, GreedyVariant variant)
    : placer_(placer),
      graph_(*placer.problem_.graph),
      grid_(placer.alloc_.network().grid_if()),
      variant_(variant),
      levels_(placer.alloc_, placer.lookup_) {
  if (grid_) cost_.emplace(*grid_);
  const TaskId n = graph_.num_tasks();
  const int nodes = placer.alloc_.num_nodes();
  node_of_item_.assign(static_cast<std::size_t>(n), -1);
  free_ = placer.problem_.capacity;
  open_pos_.assign(static_cast<std::size_t>(nodes), -1);
  for (int i = 0; i < nodes; ++i)
    if (free_[i] > 0) open_pos_[i] = static_cast<int>(open_.size()), open_.push_back(i);
  if (placer.next_ == NextItem::most_connected) {
    bytes_to_placed_.assign(static_cast<std::size_t>(n), 0.0);
    placed_neighbours_.assign(static_cast<std::size_t>(n), 0);
  } else {
    discovered_.assign(static_cast<std::size_t>(n), 0);
  }
  last_neighbour_.assign(static_cast<std::size_t>(n), -1);
  anchor_index_.assign(static_cast<std::size_t>(nodes), -1);
}

Placement GreedyRun::run(int start_node, const Deadline* deadline) {
  for (TaskId placed = 0; placed < graph_.num_tasks(); ++placed) {
    if (deadline && placed % GreedyPlacer::kClockEvery == 0 && deadline->passed()) {
      fill_in_node_order();
      return {std::move(node_of_item_), true};
    }
    const bool centre_start = placed == 0 && variant_ == GreedyVariant::from_centre;
    TaskId item = centre_start ? placer_.central_first_ : next_item();
    if (item < 0) item = next_component_start();
    place(item, choose_node(item, placed == 0 ? start_node : -2));
  }
  return {std::move(node_of_item_), false};
}

// Items in id order take the lowest free node that fits: with exact fit, the lowest empty node
// of their size (check_feasible() made sure the sizes balance, and the greedy keeps them so).
void GreedyRun::fill_in_node_order() {
  const PlacementProblem& p = placer_.problem_;
  const int nodes = static_cast<int>(free_.size());
  std::map<int, std::vector<int>> empty_of_size;  // lowest index last
  for (int node = nodes - 1; node >= 0; --node)
    if (p.exact_fit && free_[node] > 0 && free_[node] == p.capacity[node]) empty_of_size[free_[node]].push_back(node);
  int cursor = 0;
  for (TaskId item = 0; item < graph_.num_tasks(); ++item) {
    if (node_of_item_[item] >= 0) continue;
    int node = -1;
    if (p.exact_fit) {
      std::vector<int>& empty = empty_of_size[p.demand[item]];
      if (empty.empty()) throw std::logic_error("greedy placement: no node left for an item");
      node = empty.back();
      empty.pop_back();
    } else {
      while (cursor < nodes && free_[cursor] < p.demand[item]) ++cursor;
      if (cursor == nodes) throw std::logic_error("greedy placement: no node left for an item");
      node = cursor;
    }
    node_of_item_[item] = node;
    free_[node] -= p.demand[item];
  }
}

TaskId GreedyRun::next_item() {
  if (placer_.next_ == NextItem::most_connected) {
    while (!heap_.empty()) {
      std::pop_heap(heap_.begin(), heap_.end());
      const HeapEntry e = heap_.back();
      heap_.pop_back();
      if (node_of_item_[e.item] < 0 && e.bytes == bytes_to_placed_[e.item] &&
          e.neighbours == placed_neighbours_[e.item])
        return e.item;
    }
    return -1;
  }
  while (!queue_.empty()) {
    const TaskId item = queue_.front();
    queue_.pop_front();
    if (node_of_item_[item] < 0) return item;
  }
  return -1;
}

TaskId GreedyRun::next_component_start() {
  const auto& order = placer_.items_by_weight_;
  while (node_of_item_[order[start_cursor_]] >= 0) ++start_cursor_;
  const TaskId item = order[start_cursor_];
  if (!discovered_.empty()) discovered_[item] = 1;
  return item;
}

// start_node: -2 for every item but the first, -1 for the most central node.
int GreedyRun::choose_node(TaskId item, int start_node) {
  anchors_.clear();
  if (start_node != -2) {
    const int s = start_node >= 0 ? start_node : placer_.most_central_;
    if (fits(s, item)) return s;
    anchors_.push_back({placer_.coords_[s], 1.0, s});
  } else {
    gather_anchors(item);
    if (anchors_.empty()) anchors_.push_back({placer_.coords_[last_node_], 1.0, last_node_});  // a new component
  }
  return search(item);
}

void GreedyRun::gather_anchors(TaskId item) {
  if (placer_.target_ == Target::last_placed_neighbour) {
    const TaskId x = last_neighbour_[item];
    if (x >= 0) anchors_.push_back({placer_.coords_[node_of_item_[x]], 1.0, node_of_item_[x]});
    return;
  }
  const auto targets = graph_.out_neighbors(item);
  const auto weights = graph_.out_weights(item);
  double total = 0;
  for (std::size_t k = 0; k < targets.size(); ++k) {
    const int node = node_of_item_[targets[k]];
    if (node < 0) continue;
    int& index = anchor_index_[node];
    if (index < 0) {
      index = static_cast<int>(anchors_.size());
      anchors_.push_back({placer_.coords_[node], 0.0, node});
      touched_.push_back(node);
    }
    anchors_[index].weight += weights[k];
    total += weights[k];
  }
  for (int node : touched_) anchor_index_[node] = -1;
  touched_.clear();
  if (total == 0)  // only zero-byte edges: every placed neighbour counts the same
    for (Anchor& a : anchors_) a.weight = 1.0;
}

int GreedyRun::search(TaskId item) {
  if (!grid_) {
    const int node = levels_.best(anchors_, [&](int n) { return fits(n, item); }, open_);
    if (node < 0) throw std::logic_error("greedy placement: no node left for an item");
    return node;
  }
  AnchorCost& anchor_cost = *cost_;
  anchor_cost.reset(anchors_);
  const topology::Coords center = anchor_cost.center();
  std::optional<RingWalker> walker;  // for rings beyond the cached ones
  const std::size_t visit_limit = 2 * open_.size() + 64;
  std::size_t visited = 0;
  double best = std::numeric_limits<double>::infinity();
  int best_node = -1;
  const RingOffsets& rings = *placer_.rings_;
  for (int r = 0; r <= grid_->diameter(); ++r) {
    if (best_node >= 0 && anchor_cost.total_weight() * r - anchor_cost.center_cost() >= best) break;
    const auto visit = [&](NodeId g, const topology::Coords& c) {
      if (++visited > visit_limit) return false;
      const int node = placer_.lookup_(g);
      if (node < 0 || !fits(node, item)) return true;
      const double cost = anchor_cost(c);
      if (cost < best) best = cost, best_node = node;
      return true;
    };
    if (r >= rings.radii() && !walker) walker.emplace(*grid_, center);
    const bool finished = r < rings.radii() ? rings.walk(center, r, visit) : walker->walk(r, visit);
    if (!finished) return scan_open(item, center);
  }
  return best_node >= 0 ? best_node : scan_open(item, center);
}

int GreedyRun::scan_open(TaskId item, const topology::Coords& center) {
  double best = std::numeric_limits<double>::infinity();
  int best_hops = 0, best_node = -1;
  for (int node : open_) {
    if (!fits(node, item)) continue;
    const double cost = (*cost_)(placer_.coords_[node]);
    if (cost > best) continue;
    const int h = grid_->hops(placer_.coords_[node], center);
    if (cost < best || h < best_hops || (h == best_hops && node < best_node))
      best = cost, best_hops = h, best_node = node;
  }
  if (best_node < 0) throw std::logic_error("greedy placement: no node left for an item");
  return best_node;
}

void GreedyRun::place(TaskId item, int node) {
  node_of_item_[item] = node;
  last_node_ = node;
  free_[node] -= placer_.problem_.demand[item];
  if (placer_.problem_.exact_fit || free_[node] == 0) {  // close the node
    const int pos = open_pos_[node];
    open_[pos] = open_.back();
    open_pos_[open_[pos]] = pos;
    open_.pop_back();
    open_pos_[node] = -1;
  }
  const auto targets = graph_.out_neighbors(item);
  const auto weights = graph_.out_weights(item);
  if (placer_.next_ == NextItem::most_connected) {
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const TaskId x = targets[k];
      if (node_of_item_[x] >= 0) continue;
      bytes_to_placed_[x] += weights[k];
      ++placed_neighbours_[x];
      const long long pushed = variant_ == GreedyVariant::from_centre ? ++pushes_ : 0;
      heap_.push_back({bytes_to_placed_[x], placed_neighbours_[x], placer_.total_weight_[x], pushed, x});
      std::push_heap(heap_.begin(), heap_.end());
    }
    return;
  }
  by_weight_.clear();  // heaviest neighbours are discovered first
  for (std::size_t k = 0; k < targets.size(); ++k)
    if (node_of_item_[targets[k]] < 0) by_weight_.emplace_back(-weights[k], targets[k]);
  std::sort(by_weight_.begin(), by_weight_.end());
  for (const auto& [w, x] : by_weight_) {
    last_neighbour_[x] = item;
    if (!discovered_[x]) discovered_[x] = 1, queue_.push_back(x);
  }
}

GreedyPlacer::GreedyPlacer(const topology::Allocation& alloc, PlacementProblem problem, NextItem next, Target target)
    : alloc_(alloc),
      problem_(std::move(problem)),
      next_(next),
      target_(target),
      lookup_(alloc) {
  check_feasible(problem_);
  const graph::CommGraph& g = *problem_.graph;
  coords_.resize(static_cast<std::size_t>(alloc.num_nodes()));
  if (const topology::Grid* grid = alloc.network().grid_if()) {
    rings_.emplace(*grid, 2 * static_cast<std::size_t>(alloc.num_nodes()) + 1024);
    for (int i = 0; i < alloc.num_nodes(); ++i) coords_[i] = grid->coords_of(alloc.node(i));
  }
  total_weight_.assign(static_cast<std::size_t>(g.num_tasks()), 0.0);
  items_by_weight_.resize(static_cast<std::size_t>(g.num_tasks()));
  for (TaskId t = 0; t < g.num_tasks(); ++t) {
    for (double w : g.out_weights(t)) total_weight_[t] += w;
    items_by_weight_[t] = t;
  }
  std::stable_sort(items_by_weight_.begin(), items_by_weight_.end(), [&](TaskId a, TaskId b) {
    if (total_weight_[a] != total_weight_[b]) return total_weight_[a] > total_weight_[b];
    return g.out_degree(a) > g.out_degree(b);
  });
  if (next_ == NextItem::most_connected && g.num_tasks() > 0)
    central_first_ = most_central_item(g, items_by_weight_, total_weight_);
  const TaskId first = items_by_weight_.front();
  const std::vector<double> centrality = total_hops_to_all(alloc);
  most_central_ = -1;
  for (int i = 0; i < alloc.num_nodes(); ++i) {
    const bool fits = problem_.exact_fit ? problem_.capacity[i] == problem_.demand[first]
                                         : problem_.capacity[i] >= problem_.demand[first];
    if (fits && (most_central_ < 0 || centrality[i] < centrality[most_central_])) most_central_ = i;
  }
}

Placement GreedyPlacer::place(int start_node, GreedyVariant variant, const Deadline* deadline) const {
  return GreedyRun(*this, variant).run(start_node, deadline);
}

Mapping slots_from_nodes(const topology::Allocation& alloc, std::span<const int> node_of_task) {
  std::vector<std::size_t> used(static_cast<std::size_t>(alloc.num_nodes()), 0);
  Mapping slot_of(node_of_task.size());
  for (std::size_t t = 0; t < node_of_task.size(); ++t) {
    const int node = node_of_task[t];
    slot_of[t] = alloc.slots_of_node(node)[used[node]++];
  }
  return slot_of;
}

}  // namespace rankmap::mapping::detail
