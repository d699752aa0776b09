// bisect: recursive bisection of the task graph onto recursive halves of the allocation (RAHTM-like, no MILP).
//
// The allocation is halved level by level across planes of its dimensions, down to single nodes;
// each piece's tasks are split to fill its two halves exactly. A split minimises the bytes it cuts
// times the distance between the halves' centres, plus every task's bytes to the tasks outside
// the piece times its distance to where they are now (terminal propagation, Dunlop and Kernighan
// 1985). Pieces are split a whole level at a time, so the outside tasks sit in the pieces of the
// level being made, and the halves' orientation follows their neighbours: this is what RAHTM's
// merging phase searches for among rotations and reflections, here as a by-product of the cost.
// A split starts from the tasks in their current order and from a greedily grown half, improves
// each by Fiduccia-Mattheyses passes of balanced pairs of moves, and keeps the cheaper.
#include "node_geometry.hpp"
#include "symmetrized_memo.hpp"

#include <rankmap/mapping/concentration.hpp>
#include <rankmap/mapping/mapping.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <queue>

namespace rankmap::mapping {

namespace {

/// A point of the grid with fractional coordinates: the centre of a piece of the allocation.
using Point = std::vector<double>;

/// Hops between two points, each dimension the shorter way round on a torus.
double distance(const topology::Grid& grid, const Point& a, const Point& b) {
  double sum = 0;
  for (int d = 0; d < grid.ndims(); ++d) {
    double delta = std::fabs(a[d] - b[d]);
    if (grid.is_torus(d)) {
      const double k = grid.extent(d);
      delta = std::fmod(delta, k);
      delta = std::min(delta, k - delta);
    }
    sum += delta;
  }
  return sum;
}

/// Where the occupied coordinates of some nodes start along a dimension, and how far they reach.
/// On a torus the range starts after the widest empty circular gap, so that a piece wrapping
/// round the seam is one range.
struct Span {
  int origin = 0;
  int spread = 1;
};

Span span_of(const NodeGeometry& geo, std::span<const int> nodes, int d, std::vector<char>& seen) {
  const int k = geo.grid().extent(d);
  seen.assign(k, 0);
  for (int u : nodes) seen[geo.coord(u, d)] = 1;
  int lo = 0;
  while (!seen[lo]) ++lo;
  int hi = k - 1;
  while (!seen[hi]) --hi;
  if (!geo.grid().is_torus(d)) return {lo, hi - lo + 1};
  int widest = lo + k - hi, origin = lo;  // the gap across the seam; ties keep the natural origin
  for (int c = lo, last = lo; c <= hi; ++c)
    if (seen[c]) {
      if (c - last > widest) widest = c - last, origin = c;
      last = c;
    }
  return {origin, k - widest + 1};
}

/// Tasks and nodes of one piece of the allocation, as ranges of the shared arrays.
struct Piece {
  int node_begin = 0, node_end = 0;
  int task_begin = 0, task_end = 0;
  int place = 0;  ///< index of its centre in Bisector::centres_
};

/// Orders `tasks` by `coordinate` (0 .. extent-1), keeping the present order among equals: what
/// std::stable_sort does, by counting. A split sorts its tasks along every dimension of the task
/// grid, and comparison sorts were a third of bisect's time at 8,192 tasks (13 dimensions).
template <typename Coordinate>
void stable_sort_by_coordinate(std::vector<TaskId>& tasks, int extent, Coordinate&& coordinate) {
  std::vector<std::size_t> start(static_cast<std::size_t>(extent) + 1, 0);
  for (TaskId t : tasks) ++start[coordinate(t) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<TaskId> sorted(tasks.size());
  for (TaskId t : tasks) sorted[start[coordinate(t)]++] = t;
  tasks = std::move(sorted);
}

class Bisector {
 public:
  /// `task_grid`: the graph's task grid (row-major extents), or empty.
  Bisector(const graph::CommGraph& sym, const topology::Allocation& alloc, std::vector<int> task_grid,
           Mapping start, double budget_ms)
      : deadline_(budget_ms),
        sym_(sym),
        start_(std::move(start)),
        task_grid_(std::move(task_grid)),
        alloc_(alloc),
        geo_(alloc),
        place_of_(sym.num_tasks(), 0),
        mark_(sym.num_tasks(), 0),
        side_(sym.num_tasks(), 0),
        ext_(sym.num_tasks(), 0),
        to_first_(sym.num_tasks(), 0),
        internal_(sym.num_tasks(), 0),
        version_(sym.num_tasks(), 0),
        locked_(sym.num_tasks(), 0) {
    task_stride_.assign(task_grid_.size(), 1);
    for (int j = static_cast<int>(task_grid_.size()) - 2; j >= 0; --j)
      task_stride_[j] = task_stride_[j + 1] * task_grid_[j + 1];
  }

  Mapping run() {
    nodes_.resize(alloc_.num_nodes());
    std::iota(nodes_.begin(), nodes_.end(), 0);
    tasks_.resize(sym_.num_tasks());
    std::iota(tasks_.begin(), tasks_.end(), 0);
    std::vector<Piece> level{{0, alloc_.num_nodes(), 0, sym_.num_tasks(), add_centre(nodes_)}};
    while (!level.empty()) {
      std::vector<Piece> next;
      long work_left = work_from(level);
      for (const Piece& piece : level) {
        if (piece.node_end - piece.node_begin == 1) {
          place_on_node(piece);
          continue;
        }
        const long tasks = piece.task_end - piece.task_begin;
        split_deadline_ =
            Deadline(deadline_.remaining_ms() * static_cast<double>(tasks) / static_cast<double>(work_left));
        work_left -= tasks;
        const auto [first, second] = split(piece);
        next.push_back(first);
        next.push_back(second);
      }
      level = std::move(next);
    }
    return std::move(slot_of_);
  }

 private:
  /// The splits left, counted in tasks: every level splits each piece's tasks once, and the
  /// levels below `level` are as many as it takes to halve its largest piece down to single nodes.
  /// Each split gets the share of the time left that its tasks are of this, so that a split the
  /// budget cannot cover stops its refinement early rather than leaving the levels below
  /// unscored: with the whole budget for the first splits, auto's bisect at 16,384 tasks split the
  /// top two levels and kept the launcher's order below them, which was worse than that order.
  static long work_from(std::span<const Piece> level) {
    long splittable = 0;
    int largest = 1;
    for (const Piece& piece : level) {
      const int nodes = piece.node_end - piece.node_begin;
      if (nodes > 1) splittable += piece.task_end - piece.task_begin;
      largest = std::max(largest, nodes);
    }
    int levels = 0;
    while ((1 << levels) < largest) ++levels;
    return std::max(1L, splittable * levels);
  }

  int add_centre(std::span<const int> nodes) {
    Point centre(geo_.ndims());
    std::vector<char> seen;
    for (int d = 0; d < geo_.ndims(); ++d) {
      const Span span = span_of(geo_, nodes, d, seen);
      const int k = geo_.grid().extent(d);
      double sum = 0;
      for (int u : nodes) sum += (geo_.coord(u, d) - span.origin + k) % k;
      centre[d] = span.origin + sum / static_cast<double>(nodes.size());
    }
    centres_.push_back(std::move(centre));
    return static_cast<int>(centres_.size()) - 1;
  }

  void place_on_node(const Piece& piece) {
    if (slot_of_.empty()) slot_of_.assign(sym_.num_tasks(), -1);
    std::span<TaskId> tasks(tasks_.data() + piece.task_begin, tasks_.data() + piece.task_end);
    std::sort(tasks.begin(), tasks.end());
    const auto slots = alloc_.slots_of_node(nodes_[piece.node_begin]);
    for (std::size_t i = 0; i < tasks.size(); ++i) slot_of_[tasks[i]] = slots[i];
  }

  /// Orders the piece's nodes along the chosen dimension and returns how many go to the first half:
  /// a cut across an empty plane (separating pieces that no link joins) if there is one, the most
  /// balanced such; otherwise the plane nearest the middle of the slots along the widest dimension.
  int cut_nodes(std::span<int> nodes) {
    std::vector<char> seen;
    int best_dim = -1, best_left = 0;
    long best_imbalance = 0;
    bool best_empty = false;
    int best_spread = 0;
    const long total = slot_count(nodes);
    for (int d = 0; d < geo_.ndims(); ++d) {
      const Span span = span_of(geo_, nodes, d, seen);
      if (span.spread < 2) continue;
      const int k = geo_.grid().extent(d);
      const auto shifted = [&](int u) { return (geo_.coord(u, d) - span.origin + k) % k; };
      std::vector<int> order(nodes.begin(), nodes.end());
      std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return shifted(a) < shifted(b); });
      long left_slots = 0;
      for (std::size_t i = 0; i + 1 < order.size(); ++i) {
        left_slots += static_cast<long>(alloc_.slots_of_node(order[i]).size());
        const int gap = shifted(order[i + 1]) - shifted(order[i]);
        if (gap == 0) continue;
        const bool empty = gap > 1;
        const long imbalance = std::labs(2 * left_slots - total);
        const bool better = best_dim < 0 || (empty != best_empty ? empty
                                             : imbalance != best_imbalance ? imbalance < best_imbalance
                                                                           : span.spread > best_spread);
        if (better) {
          best_dim = d, best_left = static_cast<int>(i) + 1, best_imbalance = imbalance;
          best_empty = empty, best_spread = span.spread;
        }
      }
      if (best_dim == d) {
        std::copy(order.begin(), order.end(), nodes.begin());
        cut_dim_ = d, cut_origin_ = span.origin;
      }
    }
    return best_left;
  }

  long slot_count(std::span<const int> nodes) const {
    long n = 0;
    for (int u : nodes) n += static_cast<long>(alloc_.slots_of_node(u).size());
    return n;
  }

  std::pair<Piece, Piece> split(const Piece& piece) {
    std::span<int> nodes(nodes_.data() + piece.node_begin, nodes_.data() + piece.node_end);
    const int left_nodes = cut_nodes(nodes);
    Piece first{piece.node_begin, piece.node_begin + left_nodes, piece.task_begin, 0, 0};
    Piece second{piece.node_begin + left_nodes, piece.node_end, 0, piece.task_end, 0};
    first.place = add_centre(nodes.first(left_nodes));
    second.place = add_centre(nodes.subspan(left_nodes));
    first.task_end = second.task_begin = piece.task_begin + static_cast<int>(slot_count(nodes.first(left_nodes)));
    split_tasks(piece, first, second);
    return {first, second};
  }

  /// Splits the piece's tasks into `first` and `second` (slot counts fixed by their task ranges)
  /// and orders tasks_ accordingly, each side in its previous order.
  void split_tasks(const Piece& piece, const Piece& first, const Piece& second) {
    std::span<TaskId> tasks(tasks_.data() + piece.task_begin, tasks_.data() + piece.task_end);
    const int want = first.task_end - first.task_begin;
    const int k = geo_.grid().extent(cut_dim_);
    const auto start_coord = [&](TaskId t) {
      return (geo_.coord(alloc_.node_index_of_slot(start_[t]), cut_dim_) - cut_origin_ + k) % k;
    };
    std::vector<TaskId> order(tasks.begin(), tasks.end());
    if (deadline_.passed()) {
      // Out of time: the starting mapping's order along the cut, nothing scored, so that the levels
      // left keep its local structure. Tasks in their present order instead made auto's bisect,
      // cut short at 8,192 tasks, worse than the launcher's order it started from.
      stable_sort_by_coordinate(order, k, start_coord);
      assign_first(order, want);
      finish(tasks, first, second);
      return;
    }
    ++stamp_;
    for (TaskId t : tasks) mark_[t] = stamp_;
    pull_.resize(centres_.size());
    pull_stamp_.resize(centres_.size(), 0);
    const Point& a = centres_[first.place];
    const Point& b = centres_[second.place];
    span_ = std::max(1.0, distance(geo_.grid(), a, b));
    for (TaskId t : tasks) {
      double ext = 0, internal = 0;
      const auto targets = sym_.out_neighbors(t);
      const auto weights = sym_.out_weights(t);
      for (std::size_t e = 0; e < targets.size(); ++e) {
        const TaskId u = targets[e];
        if (mark_[u] == stamp_) {
          internal += weights[e];
        } else {
          ext += weights[e] * pull(place_of_[u], a, b);
        }
      }
      ext_[t] = ext;
      internal_[t] = internal;
    }
    // Candidate 1: the cheapest of the current order and, on a task grid, the order along each of
    // its dimensions, either way round: the first tasks go to the first half.
    assign_first(order, want);
    double cheapest = ordered_split_cost(tasks);
    std::vector<char> kept(tasks.size());
    for (std::size_t i = 0; i < tasks.size(); ++i) kept[i] = side_[tasks[i]];
    // The starting mapping's order along the cut: its tasks on the first half's side stay there.
    stable_sort_by_coordinate(order, k, start_coord);
    assign_first(order, want);
    if (const double c = ordered_split_cost(tasks); c < cheapest) {
      cheapest = c;
      for (std::size_t i = 0; i < tasks.size(); ++i) kept[i] = side_[tasks[i]];
    }
    for (std::size_t j = 0; j < task_grid_.size(); ++j) {
      const auto coord = [&](TaskId t) { return (t / task_stride_[j]) % task_grid_[j]; };
      stable_sort_by_coordinate(order, task_grid_[j], coord);
      for (int way = 0; way < 2; ++way) {
        assign_first(order, want);
        const double c = ordered_split_cost(tasks);
        if (c < cheapest) {
          cheapest = c;
          for (std::size_t i = 0; i < tasks.size(); ++i) kept[i] = side_[tasks[i]];
        }
        std::reverse(order.begin(), order.end());
      }
    }
    for (std::size_t i = 0; i < tasks.size(); ++i) side_[tasks[i]] = kept[i];
    if (split_deadline_.passed()) {  // out of time: the cheapest ordered split, unimproved
      finish(tasks, first, second);
      return;
    }
    double best = improve(tasks);
    if (split_deadline_.passed()) {
      finish(tasks, first, second);
      return;
    }
    for (std::size_t i = 0; i < tasks.size(); ++i) kept[i] = side_[tasks[i]];
    // Candidate 2: a first half grown greedily from the task that wants it most.
    grow(tasks, want);
    if (improve(tasks) >= best)
      for (std::size_t i = 0; i < tasks.size(); ++i) side_[tasks[i]] = kept[i];
    finish(tasks, first, second);
  }

  /// distance(a, p) - distance(b, p) for the centre p of `place`, once per split and place: the
  /// edges out of a piece go to few places, and these distances (fmods on a torus) were an eighth of
  /// bisect's time at 16,384 tasks.
  double pull(int place, const Point& a, const Point& b) {
    if (pull_stamp_[place] != stamp_) {
      const Point& p = centres_[place];
      pull_[place] = distance(geo_.grid(), a, p) - distance(geo_.grid(), b, p);
      pull_stamp_[place] = stamp_;
    }
    return pull_[place];
  }

  /// Orders the piece's tasks by side, each side in its previous order, and moves them to their halves.
  void finish(std::span<TaskId> tasks, const Piece& first, const Piece& second) {
    std::stable_partition(tasks.begin(), tasks.end(), [&](TaskId t) { return side_[t] == 0; });
    for (TaskId t : tasks) place_of_[t] = side_[t] == 0 ? first.place : second.place;
  }

  /// The first `want` tasks of `order` to the first half, the others to the second.
  void assign_first(std::span<const TaskId> order, int want) {
    for (std::size_t i = 0; i < order.size(); ++i) side_[order[i]] = i < static_cast<std::size_t>(want) ? 0 : 1;
  }

  /// cost() of the present sides without counting every task's bytes to the first half, which only
  /// the refinement needs: the ordered candidates (two per task grid dimension) read only the first
  /// half's edges.
  double ordered_split_cost(std::span<const TaskId> tasks) const {
    double cut = 0, ext = 0;
    for (TaskId t : tasks) {
      if (side_[t] != 0) continue;
      ext += ext_[t];
      const auto targets = sym_.out_neighbors(t);
      const auto weights = sym_.out_weights(t);
      for (std::size_t e = 0; e < targets.size(); ++e)
        if (mark_[targets[e]] == stamp_ && side_[targets[e]] == 1) cut += weights[e];
    }
    return span_ * cut + ext;
  }

  /// The cost of task t on the first half minus on the second, with its neighbours where they are.
  double delta(TaskId t) const { return span_ * (internal_[t] - 2 * to_first_[t]) + ext_[t]; }

  void count_first(std::span<const TaskId> tasks) {
    for (TaskId t : tasks) {
      double w = 0;
      const auto targets = sym_.out_neighbors(t);
      const auto weights = sym_.out_weights(t);
      for (std::size_t e = 0; e < targets.size(); ++e)
        if (mark_[targets[e]] == stamp_ && side_[targets[e]] == 0) w += weights[e];
      to_first_[t] = w;
    }
  }

  double cost(std::span<const TaskId> tasks) const {
    double cut = 0, ext = 0;
    for (TaskId t : tasks)
      if (side_[t] == 0) cut += internal_[t] - to_first_[t], ext += ext_[t];
    return span_ * cut + ext;
  }

  /// Moves t to the other side and updates its neighbours' weights to the first half.
  void move(TaskId t) {
    const double sign = side_[t] == 0 ? -1 : 1;
    side_[t] ^= 1;
    const auto targets = sym_.out_neighbors(t);
    const auto weights = sym_.out_weights(t);
    for (std::size_t e = 0; e < targets.size(); ++e)
      if (mark_[targets[e]] == stamp_) {
        to_first_[targets[e]] += sign * weights[e];
        ++version_[targets[e]];
      }
  }

  struct Entry {
    double gain;
    TaskId task;
    unsigned version;
    bool operator<(const Entry& o) const { return gain < o.gain || (gain == o.gain && task > o.task); }
  };
  using Heap = std::priority_queue<Entry>;

  /// A task with a neighbour on the other side, or with bytes to outside tasks that differ by side.
  bool on_boundary(TaskId t) const {
    return ext_[t] != 0 || (side_[t] == 0 ? internal_[t] - to_first_[t] : to_first_[t]) > 0;
  }

  /// The gain of moving t to the other side.
  double gain(TaskId t) const { return side_[t] == 0 ? delta(t) : -delta(t); }

  /// Pops the unlocked task of the heap with the highest current gain; -1 when none is left.
  TaskId pop(Heap& heap) {
    while (!heap.empty()) {
      const Entry e = heap.top();
      heap.pop();
      if (locked_[e.task] || e.version != version_[e.task]) continue;
      return e.task;
    }
    return -1;
  }

  void push(Heap (&heaps)[2], TaskId t) {
    if (!locked_[t]) heaps[side_[t] == 0 ? 0 : 1].push({gain(t), t, version_[t]});
  }

  /// Fiduccia-Mattheyses passes whose moves come in pairs, one each way, so that both halves keep
  /// their size; each pass keeps its best prefix. Returns the cost reached.
  double improve(std::span<const TaskId> tasks) {
    count_first(tasks);
    double current = cost(tasks);
    const std::size_t patience = std::max<std::size_t>(25, tasks.size() / 16);
    for (int pass = 0; pass < kMaxPasses; ++pass) {
      Heap heaps[2];
      for (TaskId t : tasks) {
        locked_[t] = 0;
        if (on_boundary(t)) push(heaps, t);  // the others enter when a neighbour moves
      }
      std::vector<TaskId> moved;
      double running = 0, best_gain = 0;
      std::size_t best_length = 0;
      // A pass cut short by the deadline still rolls back to its best prefix.
      while (moved.size() - best_length < 2 * patience && !(moved.size() % 256 == 0 && split_deadline_.passed())) {
        TaskId pair[2];
        double pair_gain = 0;
        bool complete = true;
        for (int from : {0, 1}) {
          pair[from] = pop(heaps[from]);
          if (pair[from] < 0) {
            complete = false;
            break;
          }
          const TaskId t = pair[from];
          pair_gain += gain(t);
          move(t);
          locked_[t] = 1;
          moved.push_back(t);
          for (TaskId u : sym_.out_neighbors(t))
            if (mark_[u] == stamp_) push(heaps, u);
        }
        if (!complete) break;
        running += pair_gain;
        if (running > best_gain + 1e-9 * std::fabs(current)) best_gain = running, best_length = moved.size();
      }
      for (std::size_t i = moved.size(); i > best_length; --i) move(moved[i - 1]);
      current -= best_gain;
      if (best_length == 0 || split_deadline_.passed()) break;
    }
    return current;
  }

  /// Greedy graph growing: every task starts on the second side, and the task whose move to the
  /// first lowers the cost most moves until the first side has `want` tasks.
  void grow(std::span<const TaskId> tasks, int want) {
    for (TaskId t : tasks) side_[t] = 1, locked_[t] = 0;
    count_first(tasks);
    Heap heaps[2];
    for (TaskId t : tasks)
      if (ext_[t] < 0) push(heaps, t);
    std::size_t next_seed = 0;
    for (int n = 0; n < want; ++n) {
      TaskId t = pop(heaps[1]);
      if (t < 0) {  // nothing pulls any task to the first half: the next task in order starts a new region
        while (side_[tasks[next_seed]] == 0) ++next_seed;
        t = tasks[next_seed];
      }
      move(t);
      locked_[t] = 1;
      for (TaskId u : sym_.out_neighbors(t))
        if (mark_[u] == stamp_) push(heaps, u);
    }
  }

  static constexpr int kMaxPasses = 4;

  Deadline deadline_;
  Deadline split_deadline_{0};  ///< the split under way's share of deadline_
  const graph::CommGraph& sym_;
  Mapping start_;  ///< the mapping whose order along each cut is a candidate split
  std::vector<int> task_grid_;
  std::vector<int> task_stride_;
  const topology::Allocation& alloc_;
  NodeGeometry geo_;
  std::vector<int> nodes_;      ///< dense node indices, each piece a range
  std::vector<TaskId> tasks_;   ///< tasks, each piece a range
  std::vector<Point> centres_;  ///< centre of every piece made so far
  std::vector<int> place_of_;   ///< task -> centre of the piece it is in now
  std::vector<int> mark_;       ///< task -> stamp of the piece being split
  int stamp_ = 0;
  std::vector<double> pull_;    ///< place -> pull() in the split of stamp pull_stamp_[place]
  std::vector<int> pull_stamp_;
  std::vector<char> side_;        ///< 0: first half, 1: second
  std::vector<double> ext_;       ///< cost on the first half minus on the second of the bytes to outside tasks
  std::vector<double> to_first_;  ///< bytes to the piece's tasks on the first half
  std::vector<double> internal_;  ///< bytes to the piece's tasks
  std::vector<unsigned> version_;  ///< bumped when a task's gain changes; older heap entries are stale
  std::vector<char> locked_;       ///< moved in the current pass
  double span_ = 1;  ///< hops between the centres of the two halves
  int cut_dim_ = 0;     ///< the dimension the last piece was cut across
  int cut_origin_ = 0;  ///< where its coordinates start
  Mapping slot_of_;
};

}  // namespace

Mapping map_bisect(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  if (!options.parameter.empty()) throw InputError("bisect: takes no parameter, got '" + options.parameter + "'");
  topology::require_grid(alloc.network(), "bisect");
  const std::shared_ptr<const graph::CommGraph> sym = detail::symmetrized(graph);
  Mapping start = options.initial ? *options.initial : identity_mapping(alloc.num_slots());
  return Bisector(*sym, alloc, detect_task_grid(graph), std::move(start), options.time_budget_ms).run();
}

}  // namespace rankmap::mapping
