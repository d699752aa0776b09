// split: recursive bisection of the task grid and the allocation together (Deveci et al., Blue Waters).
#include "node_geometry.hpp"
#include "symmetrized_memo.hpp"

#include <rankmap/mapping/concentration.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/cuthill_mckee_ordering.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <numeric>

namespace rankmap::mapping {

namespace {

using topology::Allocation;
using topology::Direction;
using topology::Grid;

/// Where the occupied coordinates of a set of nodes start along one dimension, and how far they reach.
/// On a torus the range starts after the largest empty circular gap, so a piece that wraps
/// around the boundary is seen as one contiguous range.
struct Span {
  int origin = 0;
  int spread = 1;
};

Span span_of(std::vector<int> values, int extent, bool torus) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  const std::size_t m = values.size();
  if (!torus) return {values.front(), values.back() - values.front() + 1};
  std::size_t widest = m - 1;  // the wrap gap wins ties, keeping the natural origin
  int widest_gap = values.front() + extent - values.back();
  for (std::size_t i = 0; i + 1 < m; ++i)
    if (values[i + 1] - values[i] > widest_gap) {
      widest_gap = values[i + 1] - values[i];
      widest = i;
    }
  return {values[(widest + 1) % m], extent - widest_gap + 1};
}

/// A candidate bisection of a piece of the allocation: the first `left` nodes in the order along `dim` go left.
struct NodeCut {
  double bandwidth = 0;
  int dim = 0;
  int spread = 0;
  int left = 0;
};

/// Strictly better: lower bandwidth, then more balanced, then across the wider dimension, then lower dimension.
bool better(const NodeCut& a, const NodeCut& b, int n) {
  if (a.bandwidth != b.bandwidth) return a.bandwidth < b.bandwidth;
  const int ia = std::abs(2 * a.left - n), ib = std::abs(2 * b.left - n);
  if (ia != ib) return ia < ib;
  if (a.spread != b.spread) return a.spread > b.spread;
  return a.dim < b.dim;
}

/// Recursive co-bisection of tasks and nodes; writes slot_of for every task it places.
class Splitter {
 public:
  /// task_dim_of[d] is the task-grid dimension that corresponds to grid dimension d, or -1.
  Splitter(const Allocation& alloc, const NodeGeometry& geometry, std::vector<int> task_coords, int task_dims,
           std::vector<int> task_dim_of)
      : alloc_(alloc),
        geo_(geometry),
        task_coords_(std::move(task_coords)),
        task_dims_(task_dims),
        task_dim_of_(std::move(task_dim_of)),
        piece_(alloc.num_nodes(), -1),
        left_side_(alloc.num_nodes(), 0) {}

  Mapping run() {
    std::vector<int> nodes(alloc_.num_nodes());
    std::iota(nodes.begin(), nodes.end(), 0);
    std::vector<TaskId> tasks(task_coords_.size() / task_dims_);
    std::iota(tasks.begin(), tasks.end(), 0);
    slot_of_.assign(tasks.size(), -1);
    split(nodes, tasks);
    return std::move(slot_of_);
  }

 private:
  void split(std::span<int> nodes, std::span<TaskId> tasks) {
    if (nodes.size() == 1) {
      std::sort(tasks.begin(), tasks.end());
      const auto slots = alloc_.slots_of_node(nodes[0]);
      for (std::size_t i = 0; i < tasks.size(); ++i) slot_of_[tasks[i]] = slots[i];
      return;
    }
    const auto [left, dim] = choose_cut(nodes);
    std::size_t capacity = 0;
    for (int i = 0; i < left; ++i) capacity += alloc_.slots_of_node(nodes[i]).size();
    partition_tasks(tasks, task_dim_of_[dim], capacity);
    split(nodes.first(left), tasks.first(capacity));
    split(nodes.subspan(left), tasks.subspan(capacity));
  }

  /// Puts the `left` tasks lowest along their widest task-grid dimension first, a compact sub-box.
  /// Among equally wide dimensions, the one matching the nodes' cut (`preferred`) wins, so that
  /// a task grid shaped like the allocation is cut exactly like it.
  void partition_tasks(std::span<TaskId> tasks, int preferred, std::size_t left) const {
    int best_dim = 0, best_spread = -1;
    for (int d = 0; d < task_dims_; ++d) {
      int lo = INT32_MAX, hi = INT32_MIN;
      for (TaskId t : tasks) {
        lo = std::min(lo, task_coord(t, d));
        hi = std::max(hi, task_coord(t, d));
      }
      if (hi - lo > best_spread || (hi - lo == best_spread && d == preferred)) {
        best_spread = hi - lo;
        best_dim = d;
      }
    }
    std::nth_element(tasks.begin(), tasks.begin() + left, tasks.end(), [&](TaskId a, TaskId b) {
      const int ca = task_coord(a, best_dim), cb = task_coord(b, best_dim);
      return ca != cb ? ca < cb : a < b;
    });
  }

  int task_coord(TaskId t, int d) const { return task_coords_[static_cast<std::size_t>(t) * task_dims_ + d]; }

  /// Reorders `nodes` along the chosen dimension; returns how many of them go left, and the dimension.
  std::pair<int, int> choose_cut(std::span<int> nodes) {
    const int n = static_cast<int>(nodes.size());
    ++stamp_;
    for (int u : nodes) piece_[u] = stamp_;
    NodeCut best;
    std::vector<int> best_order;
    for (int d = 0; d < geo_.ndims(); ++d) {
      const Grid& grid = geo_.grid();
      std::vector<int> values(n);
      for (int i = 0; i < n; ++i) values[i] = geo_.coord(nodes[i], d);
      const Span span = span_of(values, grid.extent(d), grid.is_torus(d));
      if (span.spread < 2) continue;
      const int k = grid.extent(d);
      const auto shifted = [&](int u) { return ((geo_.coord(u, d) - span.origin) % k + k) % k; };
      std::vector<int> order(nodes.begin(), nodes.end());
      std::sort(order.begin(), order.end(), [&](int a, int b) {
        const int sa = shifted(a), sb = shifted(b);
        return sa != sb ? sa < sb : alloc_.node(a) < alloc_.node(b);
      });
      std::vector<NodeCut> candidates = plane_cuts(order, d, shifted);
      candidates.push_back({median_bandwidth(order, n / 2), d, 0, n / 2});
      bool improved = false;
      for (NodeCut& candidate : candidates) {
        candidate.spread = span.spread;
        if ((best_order.empty() && !improved) || better(candidate, best, n)) {
          best = candidate;
          improved = true;
        }
      }
      if (improved) best_order = std::move(order);
    }
    std::copy(best_order.begin(), best_order.end(), nodes.begin());
    return {best.left, best.dim};
  }

  /// Cuts between consecutive occupied planes of dimension d that keep a quarter of the nodes on each
  /// side, or that cut no link at all (separating disconnected pieces). Bandwidth by one sweep.
  template <class Shifted>
  std::vector<NodeCut> plane_cuts(const std::vector<int>& order, int d, const Shifted& shifted) {
    const int n = static_cast<int>(order.size());
    const double capacity = geo_.grid().capacity(d);
    std::vector<double> between(n, 0);  // indexed by the position of a plane's last node
    std::vector<int> plane_end(n);      // position after the last node of the plane of order[i]
    for (int i = n - 1; i >= 0; --i)
      plane_end[i] = i + 1 < n && shifted(order[i + 1]) == shifted(order[i]) ? plane_end[i + 1] : i + 1;
    double wrap = 0;
    for (int i = 0; i < n; ++i) {
      const int u = order[i];
      const int v = geo_.neighbor(u, d, Direction::plus);
      if (v < 0 || piece_[v] != stamp_ || !geo_.counts_link(u, d, Direction::plus)) continue;
      if (shifted(v) == shifted(u) + 1)
        between[plane_end[i] - 1] += capacity;
      else
        wrap += capacity;
    }
    std::vector<NodeCut> cuts;
    for (int i = 0; i + 1 < n; i = plane_end[i]) {
      const int left = plane_end[i];
      if (left >= n) break;
      const double bandwidth = between[left - 1] + wrap;
      if (bandwidth == 0 || (4 * left >= n && 4 * left <= 3 * n))
        cuts.push_back({bandwidth, d, 0, left});
    }
    return cuts;
  }

  /// Capacity of the links between the first `left` nodes of `order` and the rest of the piece.
  double median_bandwidth(const std::vector<int>& order, int left) {
    for (std::size_t i = 0; i < order.size(); ++i) left_side_[order[i]] = static_cast<int>(i) < left;
    double bandwidth = 0;
    for (int i = 0; i < left; ++i) {
      const int u = order[i];
      for (int d = 0; d < geo_.ndims(); ++d)
        for (const Direction dir : {Direction::plus, Direction::minus}) {
          const int v = geo_.neighbor(u, d, dir);
          if (v >= 0 && piece_[v] == stamp_ && !left_side_[v] && geo_.counts_link(u, d, dir))
            bandwidth += geo_.grid().capacity(d);
        }
    }
    return bandwidth;
  }

  const Allocation& alloc_;
  const NodeGeometry& geo_;
  std::vector<int> task_coords_;
  int task_dims_;
  std::vector<int> task_dim_of_;
  std::vector<int> piece_;
  std::vector<char> left_side_;
  int stamp_ = 0;
  Mapping slot_of_;
};

/// The allocation's spread along every grid dimension.
std::vector<int> allocation_spreads(const Allocation& alloc) {
  const Grid& grid = alloc.grid();
  std::vector<int> spreads;
  for (int d = 0; d < grid.ndims(); ++d) {
    std::vector<int> values(alloc.num_nodes());
    for (int i = 0; i < alloc.num_nodes(); ++i) values[i] = grid.coord(alloc.node(i), d);
    spreads.push_back(span_of(values, grid.extent(d), grid.is_torus(d)).spread);
  }
  return spreads;
}

/// The virtual task grid: the prime factors of P, largest first, each multiplied into the
/// dimension whose allocation spread is largest relative to the task extent given so far.
/// Its dimensions are the grid dimensions along which the allocation spreads, in order.
std::vector<int> virtual_shape(TaskId num_tasks, const std::vector<int>& all_spreads) {
  std::vector<int> spreads;
  for (int spread : all_spreads)
    if (spread > 1) spreads.push_back(spread);
  if (spreads.empty()) spreads.push_back(1);
  std::vector<int> primes;
  int rest = num_tasks;
  for (int p = 2; p * p <= rest; ++p)
    while (rest % p == 0) primes.push_back(p), rest /= p;
  if (rest > 1) primes.push_back(rest);
  std::sort(primes.rbegin(), primes.rend());
  std::vector<int> shape(spreads.size(), 1);
  for (int p : primes) {
    std::size_t best = 0;
    for (std::size_t d = 1; d < shape.size(); ++d)
      if (double(spreads[d]) / shape[d] > double(spreads[best]) / shape[best]) best = d;
    shape[best] *= p;
  }
  std::erase(shape, 1);
  if (shape.empty()) shape.push_back(1);
  return shape;
}

/// Row-major coordinates on `shape` of the task at each position of `order`.
std::vector<int> lay_out(std::span<const TaskId> order, const std::vector<int>& shape) {
  const int m = static_cast<int>(shape.size());
  std::vector<int> coords(order.size() * m);
  for (std::size_t pos = 0; pos < order.size(); ++pos) {
    std::size_t rest = pos;
    for (int d = m - 1; d >= 0; --d) {
      coords[static_cast<std::size_t>(order[pos]) * m + d] = static_cast<int>(rest % shape[d]);
      rest /= shape[d];
    }
  }
  return coords;
}

std::vector<TaskId> cuthill_mckee_order(const graph::CommGraph& graph) {
  using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  const std::shared_ptr<const graph::CommGraph> shared = detail::symmetrized(graph);
  const graph::CommGraph& sym = *shared;
  BoostGraph g(sym.num_tasks());
  for (TaskId t = 0; t < sym.num_tasks(); ++t)
    for (TaskId u : sym.out_neighbors(t))
      if (t < u) boost::add_edge(t, u, g);
  std::vector<BoostGraph::vertex_descriptor> order(sym.num_tasks());
  boost::cuthill_mckee_ordering(g, order.rbegin());
  return {order.begin(), order.end()};
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double objective_value(const graph::CommGraph& graph, const Allocation& alloc, const Mapping& m,
                       const MapOptions& options) {
  if (options.objective == Objective::hop_bytes) return metrics::hop_bytes(graph, alloc, m);
  const auto routing = topology::shared_routing_model(alloc.network(), options.routing);
  return metrics::max_channel_load(graph, alloc, m, *routing);
}

/// task_dim_of[d]: the task-grid dimension matching grid dimension d, when the task grid has one
/// dimension per grid dimension the allocation spreads along (in the same order); else -1.
std::vector<int> matching_dimensions(const std::vector<int>& shape, const std::vector<int>& spreads) {
  std::vector<int> task_dim_of(spreads.size(), -1);
  const auto spread_out = std::count_if(spreads.begin(), spreads.end(), [](int s) { return s > 1; });
  if (shape.size() != static_cast<std::size_t>(spread_out)) return task_dim_of;
  for (int d = 0, next = 0; d < static_cast<int>(spreads.size()); ++d)
    if (spreads[d] > 1) task_dim_of[d] = next++;
  return task_dim_of;
}

}  // namespace

// Two candidate task grids, each mapped, and the better by the objective kept (the first on a tie).
// A graph with grid structure: its own grid, or the virtual grid in rank order, since detection
// can find a grid that fits the edges but not the machine (a binomial tree is a hypercube
// stencil). Otherwise: the virtual grid in rank order, or in Cuthill-McKee order, which keeps
// neighbours in nearby positions when rank order means nothing. Within the time budget: the
// second candidate is made only if the time left covers making it (as long as the first took)
// and scoring both, and is dropped if the deadline passes meanwhile; so a run ends within the
// budget plus one objective evaluation, or at the first candidate.
Mapping map_split(const graph::CommGraph& graph, const Allocation& alloc, const MapOptions& options) {
  if (!options.parameter.empty()) throw InputError("split: takes no parameter, got '" + options.parameter + "'");
  topology::require_grid(alloc.network(), "split");
  const Deadline deadline(options.time_budget_ms);
  const NodeGeometry geometry(alloc);
  const TaskId n = graph.num_tasks();
  const std::vector<int> spreads = allocation_spreads(alloc);
  const std::vector<int> virtual_grid = virtual_shape(n, spreads);
  const std::vector<int> detected = detect_task_grid(graph);
  const auto split_along = [&](const std::vector<int>& shape, std::span<const TaskId> order) {
    return Splitter(alloc, geometry, lay_out(order, shape), static_cast<int>(shape.size()),
                    matching_dimensions(shape, spreads))
        .run();
  };
  const bool own_grid = !detected.empty() && detected != virtual_grid;
  auto start = std::chrono::steady_clock::now();
  Mapping first = split_along(own_grid ? detected : virtual_grid, identity_mapping(n));
  if (!detected.empty() && !own_grid) return first;  // the detected grid is the virtual one: one candidate
  const double first_ms = ms_since(start);
  if (deadline.remaining_ms() < first_ms) return first;
  start = std::chrono::steady_clock::now();
  const double first_value = objective_value(graph, alloc, first, options);
  if (deadline.remaining_ms() < first_ms + ms_since(start)) return first;
  Mapping second = own_grid ? split_along(virtual_grid, identity_mapping(n))
                            : split_along(virtual_grid, cuthill_mckee_order(graph));
  if (deadline.passed()) return first;
  return objective_value(graph, alloc, second, options) < first_value ? second : first;
}

}  // namespace rankmap::mapping
