// Recognising stencil graphs on a row-major task grid, and cutting the grid into node-sized tiles.
#include <rankmap/mapping/concentration.hpp>

#include "task_grid.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <optional>
#include <vector>

namespace rankmap::mapping {

namespace {

constexpr std::size_t kMaxStrideCandidates = 12;
constexpr std::size_t kMaxValidations = 64;
/// With more factorisations to validate than this, the edges are grouped by difference first
/// (clearly_off_grid): with fewer, grouping cost more than it saved (stencil27 at 4,096 tasks, 4
/// factorisations: 2.2 ms against 1.2).
constexpr std::size_t kChainsWorthGrouping = 8;
constexpr double kTolerance = 0.01;  ///< share of the bytes allowed off the grid
/// The most edges per task a stencil may have: the 243 points of a five-dimensional stencil with
/// diagonals. Denser graphs are not searched for a grid: an all-to-all of 1,024 tasks passed every
/// cheap test (it is a stencil on a 2x2x...x2 grid) and validating its factorisations took a third
/// of auto's 200 ms, for a grid that changes no mapping of an all-to-all. fft2d on an elongated
/// process grid (2x256: 257 edges per task) loses its 2x...x2 grid too.
constexpr std::int64_t kMaxStencilDegree = 242;

/// Strides of a row-major grid, the fastest (1) first, from its extents (slowest first).
std::vector<std::int64_t> strides_of(std::span<const int> extents) {
  std::vector<std::int64_t> strides(extents.size());
  std::int64_t s = 1;
  for (std::size_t d = extents.size(); d-- > 0;) strides[d] = s, s *= extents[d];
  return strides;
}

bool is_neighbour_step(int delta, int extent) { return std::abs(delta) == 1 || std::abs(delta) == extent - 1; }

/// t / s for every task t and every stride s a factorisation may use, computed once: the
/// factorisations tried share their strides, and dividing per edge and dimension made the
/// validations most of bisect's time at 8,192 tasks (recursive doubling, 13 strides).
class StrideQuotients {
 public:
  StrideQuotients(std::int64_t tasks, std::span<const std::int64_t> strides)
      : strides_(strides.begin(), strides.end()) {
    quotients_.resize(strides_.size(), std::vector<std::int32_t>(static_cast<std::size_t>(tasks)));
    for (std::size_t i = 0; i < strides_.size(); ++i)
      for (std::int64_t t = 0; t < tasks; ++t) quotients_[i][t] = static_cast<std::int32_t>(t / strides_[i]);
  }

  std::span<const std::int32_t> of(std::int64_t stride) const {
    const auto it = std::find(strides_.begin(), strides_.end(), stride);
    return quotients_[static_cast<std::size_t>(it - strides_.begin())];
  }

 private:
  std::vector<std::int64_t> strides_;
  std::vector<std::vector<std::int32_t>> quotients_;
};

/// The row-major grid whose strides (fastest first, 1 leading) are `chain`, read through the quotients.
class ChainGrid {
 public:
  ChainGrid(std::int64_t tasks, std::span<const std::int64_t> chain, const StrideQuotients& quotients) {
    // Coordinate d of task t is below_[d][t] - above_[d][t] * extent_[d].
    for (std::size_t d = 0; d < chain.size(); ++d) {
      const std::int64_t next = d + 1 < chain.size() ? chain[d + 1] : tasks;
      below_.push_back(quotients.of(chain[d]));
      above_.push_back(quotients.of(next));
      extent_.push_back(static_cast<int>(next / chain[d]));
    }
  }

  /// How many dimensions the edge from a to b moves along; -1 when it is off the grid (a step in
  /// some dimension to other than a neighbour).
  int moves(TaskId a, TaskId b) const {
    int moved = 0;
    bool on_grid = true;
    for (std::size_t d = 0; d < extent_.size() && on_grid; ++d) {
      const int delta = (below_[d][b] - above_[d][b] * extent_[d]) - (below_[d][a] - above_[d][a] * extent_[d]);
      if (delta != 0) ++moved, on_grid = is_neighbour_step(delta, extent_[d]);
    }
    return on_grid ? moved : -1;
  }

 private:
  std::vector<std::span<const std::int32_t>> below_, above_;
  std::vector<int> extent_;
};

/// An edge's weight as the validation counts it: its bytes, or 1 in a graph without weights.
double counted_weight(const graph::CommGraph& graph, double weight) { return graph.total_weight() > 0 ? weight : 1.0; }

/// The bytes the validation counts in all.
double counted_total(const graph::CommGraph& graph) {
  return graph.total_weight() > 0 ? graph.total_weight() : static_cast<double>(graph.num_edges());
}

/// The edges grouped by their index difference b - a: a stencil has few differences, and the edges
/// of one difference mostly step alike on any grid.
class EdgesByDifference {
 public:
  explicit EdgesByDifference(const graph::CommGraph& graph) {
    const std::int64_t n = graph.num_tasks();
    std::vector<std::size_t> count(static_cast<std::size_t>(2 * n), 0);  // by b - a + n
    for (TaskId a = 0; a < n; ++a)
      for (TaskId b : graph.out_neighbors(a)) ++count[static_cast<std::size_t>(std::int64_t{b} - a + n)];
    std::vector<std::size_t> next(count.size());  // where the next edge of each difference goes
    std::size_t offset = 0;
    for (std::size_t i = 0; i < count.size(); ++i) {
      if (count[i] == 0) continue;
      first_.push_back(next[i] = offset);
      difference_.push_back(static_cast<std::int64_t>(i) - n);
      offset += count[i];
    }
    first_.push_back(offset);
    source_.resize(first_.back());
    weight_.resize(first_.back());
    for (TaskId a = 0; a < n; ++a) {
      const auto targets = graph.out_neighbors(a);
      const auto weights = graph.out_weights(a);
      for (std::size_t k = 0; k < targets.size(); ++k) {
        const std::size_t at = next[static_cast<std::size_t>(std::int64_t{targets[k]} - a + n)]++;
        source_[at] = a;
        weight_[at] = counted_weight(graph, weights[k]);
      }
    }
  }

  std::size_t num_groups() const { return difference_.size(); }
  std::int64_t difference(std::size_t group) const { return difference_[group]; }
  /// The group's edges: their sources and counted weights.
  std::span<const TaskId> sources(std::size_t group) const {
    return std::span(source_).subspan(first_[group], first_[group + 1] - first_[group]);
  }
  std::span<const double> weights(std::size_t group) const {
    return std::span(weight_).subspan(first_[group], first_[group + 1] - first_[group]);
  }

 private:
  std::vector<std::int64_t> difference_;
  std::vector<std::size_t> first_;  ///< per group, where its edges start; one more at the end
  std::vector<TaskId> source_;
  std::vector<double> weight_;
};

/// Whether the edges off `grid` already exceed the tolerance, counting only the groups whose first
/// edge is off it. stencil_spread reads the tasks in order, and on a hypercube-like grid a wrong
/// factorisation put about one edge in 13 off it: refuting one took 13% of the edges, and the 51
/// refuted for recursive doubling at 8,192 tasks most of the 24 ms that detect_task_grid took.
/// A true count, so a factorisation refuted here would have been refuted there too.
bool clearly_off_grid(const ChainGrid& grid, const EdgesByDifference& edges, double limit) {
  double off_grid = 0;
  for (std::size_t g = 0; g < edges.num_groups(); ++g) {
    const std::span<const TaskId> sources = edges.sources(g);
    const std::int64_t diff = edges.difference(g);
    if (grid.moves(sources.front(), static_cast<TaskId>(sources.front() + diff)) >= 0) continue;
    const std::span<const double> weights = edges.weights(g);
    for (std::size_t k = 0; k < sources.size(); ++k)
      if (grid.moves(sources[k], static_cast<TaskId>(sources[k] + diff)) < 0 && (off_grid += weights[k]) > limit)
        return true;
  }
  return false;
}

/// The bytes-weighted average number of dimensions an edge moves along, if the graph is a stencil
/// on `grid` (at most kTolerance of the bytes off it); a negative number otherwise, and also as
/// soon as the average is sure to reach `to_beat` (it only grows as edges are counted).
double stencil_spread(const graph::CommGraph& graph, const ChainGrid& grid, double to_beat) {
  const double total = counted_total(graph);
  double off_grid = 0, spread = 0;
  for (TaskId a = 0; a < graph.num_tasks(); ++a) {
    if (spread / total >= to_beat) return -1;
    const auto targets = graph.out_neighbors(a);
    const auto weights = graph.out_weights(a);
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const double w = counted_weight(graph, weights[k]);
      if (const int moved = grid.moves(a, targets[k]); moved >= 0) {
        spread += w * moved;
      } else if ((off_grid += w) > kTolerance * total) {
        return -1;
      }
    }
  }
  return spread / total;
}

/// A stencil repeats a few offsets at every task, so it has few distinct index differences
/// (at most 2^m per offset, from wrapping around) compared with its edges per task.
/// Differences are marked in a flag array, not a hash set: a dense graph under the degree cut-off
/// (fft2d of 2,000 tasks, 176,000 edges) would make as many hash insertions.
bool has_few_offsets(const graph::CommGraph& graph) {
  const std::int64_t n = graph.num_tasks();
  const std::size_t limit = 8 * static_cast<std::size_t>((graph.num_edges() + n - 1) / n) + 8;
  std::vector<char> seen(static_cast<std::size_t>(2 * n), 0);  // b - a + n
  std::size_t distinct = 0;
  for (TaskId a = 0; a < n; ++a)
    for (TaskId b : graph.out_neighbors(a)) {
      char& mark = seen[static_cast<std::size_t>(static_cast<std::int64_t>(b) - a + n)];
      if (!mark && (mark = 1, ++distinct > limit)) return false;
    }
  return true;
}

/// Every chain of strides 1 = s0 < s1 < ... with each dividing the next, drawn from `candidates`.
void stride_chains(std::vector<std::int64_t>& chain, const std::vector<std::int64_t>& candidates,
                   std::vector<std::vector<std::int64_t>>& out) {
  out.push_back(chain);
  for (std::int64_t s : candidates) {
    if (s <= chain.back() || s % chain.back() != 0) continue;
    chain.push_back(s);
    stride_chains(chain, candidates, out);
    chain.pop_back();
  }
}

void enumerate_tiles(std::span<const int> grid, std::span<const double> bytes, std::size_t d, int left,
                     std::vector<int>& tile, std::pair<double, double> cost, std::pair<double, double>& best_cost,
                     std::vector<int>& best) {
  if (d == grid.size()) {
    if (left == 1 && (best.empty() || cost < best_cost)) best = tile, best_cost = cost;
    return;
  }
  for (int t = std::min(left, grid[d]); t >= 1; --t) {
    if (grid[d] % t != 0 || left % t != 0) continue;
    tile[d] = t;
    std::pair<double, double> next = cost;
    if (t < grid[d]) next.first += bytes[d] / t, next.second += 1.0 / t;
    enumerate_tiles(grid, bytes, d + 1, left / t, tile, next, best_cost, best);
  }
}

/// The task grid of a graph that passed has_few_offsets.
std::vector<int> detect_stencil_grid(const graph::CommGraph& graph) {
  const std::int64_t n = graph.num_tasks();
  std::vector<char> is_difference(static_cast<std::size_t>(n), 0);
  for (TaskId a = 0; a < graph.num_tasks(); ++a)
    for (TaskId b : graph.out_neighbors(a)) is_difference[static_cast<std::size_t>(std::abs(static_cast<std::int64_t>(b) - a))] = 1;
  std::vector<std::int64_t> candidates;  // ascending
  for (std::int64_t diff = 2; diff < n; ++diff)
    if (is_difference[static_cast<std::size_t>(diff)] && n % diff == 0) candidates.push_back(diff);
  if (candidates.size() > kMaxStrideCandidates) candidates.resize(kMaxStrideCandidates);
  std::vector<std::int64_t> chain{1};
  std::vector<std::vector<std::int64_t>> chains;
  stride_chains(chain, candidates, chains);
  // Several factorisations may pass when diagonal steps are allowed (3x2x4 for 2x3x4); the
  // right one moves each edge along the fewest dimensions, then has the most dimensions.
  std::stable_sort(chains.begin(), chains.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  if (chains.size() > kMaxValidations) chains.resize(kMaxValidations);
  std::vector<std::int64_t> used{1, n};
  used.insert(used.end(), candidates.begin(), candidates.end());
  const StrideQuotients quotients(n, used);
  std::optional<EdgesByDifference> edges;
  if (chains.size() > kChainsWorthGrouping) edges.emplace(graph);
  const double off_grid_limit = kTolerance * counted_total(graph);
  std::vector<int> best;
  double best_spread = std::numeric_limits<double>::infinity();
  for (const auto& strides : chains) {
    const ChainGrid grid(n, strides, quotients);
    if (edges && clearly_off_grid(grid, *edges, off_grid_limit)) continue;
    const double spread = stencil_spread(graph, grid, best_spread);
    if (spread < 0 || spread >= best_spread) continue;
    best.assign(1, static_cast<int>(n / strides.back()));
    for (std::size_t i = strides.size() - 1; i > 0; --i) best.push_back(static_cast<int>(strides[i] / strides[i - 1]));
    best_spread = spread;
  }
  return best;
}

}  // namespace

std::vector<int> detect_task_grid(const graph::CommGraph& graph) {
  return detail::TaskGridMemo::find_or(graph, [&] {
    const bool may_be_stencil = graph.num_tasks() >= 2 && graph.num_edges() > 0 &&
                                graph.num_edges() <= kMaxStencilDegree * graph.num_tasks() && has_few_offsets(graph);
    return may_be_stencil ? detect_stencil_grid(graph) : std::vector<int>();
  });
}

std::vector<int> choose_tile(std::span<const int> task_grid, std::span<const double> bytes_along, int tile_size) {
  std::vector<int> tile(task_grid.size(), 1), best;
  std::pair<double, double> best_cost{std::numeric_limits<double>::infinity(), 0};
  enumerate_tiles(task_grid, bytes_along, 0, tile_size, tile, {0.0, 0.0}, best_cost, best);
  return best;
}

namespace detail {

// Every task's coordinates are computed once: dividing per edge and dimension took emahd 74 ms of
// its 56 before it could look at the clock (fft2d, 2,048 tasks on a grid of eleven dimensions,
// 192,512 edges).
std::vector<double> bytes_along_dimensions(const graph::CommGraph& graph, std::span<const int> task_grid) {
  const std::vector<std::int64_t> strides = strides_of(task_grid);
  const std::size_t dims = task_grid.size();
  std::vector<int> coords(static_cast<std::size_t>(graph.num_tasks()) * dims);
  for (TaskId t = 0; t < graph.num_tasks(); ++t)
    for (std::size_t d = 0; d < dims; ++d)
      coords[static_cast<std::size_t>(t) * dims + d] = static_cast<int>((t / strides[d]) % task_grid[d]);
  std::vector<double> bytes(dims, 0.0);
  for (TaskId a = 0; a < graph.num_tasks(); ++a) {
    const int* from = &coords[static_cast<std::size_t>(a) * dims];
    const auto targets = graph.out_neighbors(a);
    const auto weights = graph.out_weights(a);
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const int* to = &coords[static_cast<std::size_t>(targets[k]) * dims];
      for (std::size_t d = 0; d < dims; ++d)
        if (from[d] != to[d]) bytes[d] += weights[k];
    }
  }
  return bytes;
}

std::vector<int> tile_groups(std::span<const int> task_grid, std::span<const int> tile) {
  const std::vector<std::int64_t> strides = strides_of(task_grid);
  std::vector<int> tiles_along(task_grid.size());
  for (std::size_t d = 0; d < task_grid.size(); ++d) tiles_along[d] = task_grid[d] / tile[d];
  const std::int64_t n = strides.empty() ? 1 : strides[0] * task_grid[0];
  std::vector<int> group(static_cast<std::size_t>(n));
  for (std::int64_t t = 0; t < n; ++t) {
    int g = 0;
    for (std::size_t d = 0; d < task_grid.size(); ++d)
      g = g * tiles_along[d] + static_cast<int>((t / strides[d]) % task_grid[d]) / tile[d];
    group[t] = g;
  }
  return group;
}

}  // namespace detail

}  // namespace rankmap::mapping
