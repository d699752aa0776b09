// Tile-shape search over task grids, level by level, and task-grid inference by factorisation.
#include "tiling.hpp"

#include "subgraph.hpp"

#include <algorithm>
#include <functional>

namespace rankmap::rahtm {

namespace {

std::vector<int> divisors(int n) {
  std::vector<int> d;
  for (int k = 1; k <= n; ++k)
    if (n % k == 0) d.push_back(k);
  return d;
}

/// Every tile shape with `cells` cells whose sides divide the grid's, in lexicographic order.
std::vector<std::vector<int>> tile_shapes(const std::vector<int>& grid, std::int64_t cells) {
  std::vector<std::vector<int>> shapes;
  std::vector<int> tile(grid.size());
  std::function<void(std::size_t, std::int64_t)> extend = [&](std::size_t k, std::int64_t left) {
    if (k == grid.size()) {
      if (left == 1) shapes.push_back(tile);
      return;
    }
    for (int t : divisors(grid[k]))
      if (left % t == 0) tile[k] = t, extend(k + 1, left / t);
  };
  extend(0, cells);
  return shapes;
}

/// Cluster of every vertex of a row-major grid cut into tiles.
std::vector<int> clusters_of(const std::vector<int>& grid, const std::vector<int>& tile) {
  std::int64_t n = 1;
  for (int g : grid) n *= g;
  std::vector<int> cluster(static_cast<std::size_t>(n));
  std::vector<int> coords(grid.size(), 0);
  for (std::int64_t v = 0; v < n; ++v) {
    int c = 0;
    for (std::size_t k = 0; k < grid.size(); ++k) c = c * (grid[k] / tile[k]) + coords[k] / tile[k];
    cluster[v] = c;
    for (std::size_t k = grid.size(); k-- > 0;) {  // row-major increment
      if (++coords[k] < grid[k]) break;
      coords[k] = 0;
    }
  }
  return cluster;
}

bool less_cut(double a, double b) { return a < b - 1e-9 * std::max(1.0, b); }

/// Lexicographic comparison of per-level cuts, bottom level first.
bool better_cuts(const std::vector<double>& a, const std::vector<double>& b) {
  for (std::size_t j = 0; j < a.size(); ++j) {
    if (less_cut(a[j], b[j])) return true;
    if (less_cut(b[j], a[j])) return false;
  }
  return false;
}

/// The least cut of one level over every tile shape of `cells` cells dividing `grid`, and the shape
/// and clusters that give it (the first such shape in lexicographic order); no shape if none divides.
struct LevelChoice {
  std::vector<int> tile;
  std::vector<int> clusters;
  double cut = 0;
};
LevelChoice best_level(const graph::CommGraph& graph, const std::vector<int>& grid, std::int64_t cells) {
  LevelChoice best;
  for (const std::vector<int>& tile : tile_shapes(grid, cells)) {
    std::vector<int> cluster = clusters_of(grid, tile);
    const double cut = cut_weight(graph, cluster);
    if (best.tile.empty() || less_cut(cut, best.cut)) best = {tile, std::move(cluster), cut};
  }
  return best;
}

}  // namespace

std::optional<Tiling> tile_levels(const graph::CommGraph& graph, std::span<const int> task_grid,
                                  std::span<const std::int64_t> level_sizes) {
  Tiling tiling;
  tiling.task_grid.assign(task_grid.begin(), task_grid.end());
  std::vector<int> grid = tiling.task_grid;
  graph::CommGraph current = graph;
  for (std::int64_t size : level_sizes) {
    LevelChoice best = best_level(current, grid, size);
    if (best.tile.empty()) return std::nullopt;
    int clusters = 1;
    for (std::size_t k = 0; k < grid.size(); ++k) grid[k] /= best.tile[k], clusters *= grid[k];
    current = contract(current, best.clusters, clusters);
    tiling.tiles.push_back(best.tile);
    tiling.cuts.push_back(best.cut);
  }
  return tiling;
}

std::optional<Tiling> infer_tiling(const graph::CommGraph& graph, std::span<const std::int64_t> level_sizes,
                                   const mapping::Deadline* deadline) {
  const int n = graph.num_tasks();
  std::vector<std::vector<int>> shapes = {{n}};
  for (int a : divisors(n)) {
    if (a == 1 || a == n) continue;
    shapes.push_back({a, n / a});
  }
  for (int a : divisors(n))
    for (int b : divisors(n / a))
      if (a > 1 && b > 1 && n / a / b > 1) shapes.push_back({a, b, n / a / b});
  // Cuts compare bottom level first, so a shape whose best node-level cut is above the least one
  // cannot win: only the others are tiled further (contracting the graph level by level is what
  // costs; 46 shapes of 1,024 tasks).
  if (level_sizes.empty()) return tile_levels(graph, shapes.front(), level_sizes);
  std::vector<double> node_cut(shapes.size());
  std::vector<char> fits(shapes.size(), 0);
  bool any = false;
  double least = 0;
  const auto out_of_time = [&](std::size_t s) { return s > 0 && deadline && deadline->passed(); };
  for (std::size_t s = 0; s < shapes.size() && !out_of_time(s); ++s) {
    const LevelChoice level = best_level(graph, shapes[s], level_sizes.front());
    if (level.tile.empty()) continue;
    fits[s] = 1;
    node_cut[s] = level.cut;
    if (!any || less_cut(level.cut, least)) least = level.cut, any = true;
  }
  std::optional<Tiling> best;
  for (std::size_t s = 0; s < shapes.size() && !(best && out_of_time(s)); ++s) {
    if (!fits[s] || less_cut(least, node_cut[s])) continue;
    std::optional<Tiling> t = tile_levels(graph, shapes[s], level_sizes);
    if (t && (!best || better_cuts(t->cuts, best->cuts))) best = std::move(t);
  }
  return best;
}

std::vector<int> tiling_clusters(const Tiling& tiling, int levels) {
  std::vector<int> tile(tiling.task_grid.size(), 1);
  for (int j = 0; j < levels; ++j)
    for (std::size_t k = 0; k < tile.size(); ++k) tile[k] *= tiling.tiles[j][k];
  return clusters_of(tiling.task_grid, tile);
}

}  // namespace rankmap::rahtm
