// Grid-shape detection: try the factorisations of the task count until one explains every edge.
#include <rankmap/graph/grid_structure.hpp>

#include <algorithm>

namespace rankmap::graph {

namespace {

/// Appends every ordered factorisation of n into exactly `parts` factors >= 2.
void factorisations(int n, int parts, std::vector<int>& prefix, std::vector<std::vector<int>>& out) {
  if (parts == 1) {
    if (n >= 2) {
      prefix.push_back(n);
      out.push_back(prefix);
      prefix.pop_back();
    }
    return;
  }
  for (int f = 2; f <= n / 2; ++f) {
    if (n % f) continue;
    prefix.push_back(f);
    factorisations(n / f, parts - 1, prefix, out);
    prefix.pop_back();
  }
}

bool close_along(int a, int b, int extent) {
  const int diff = std::abs(a - b);
  return diff <= 1 || (extent > 2 && diff == extent - 1);
}

bool shape_fits(const CommGraph& graph, const std::vector<int>& shape) {
  const int m = static_cast<int>(shape.size());
  for (TaskId t = 0; t < graph.num_tasks(); ++t)
    for (TaskId u : graph.out_neighbors(t)) {
      TaskId a = t;
      TaskId b = u;
      for (int d = m - 1; d >= 0; --d) {
        if (!close_along(a % shape[d], b % shape[d], shape[d])) return false;
        a /= shape[d];
        b /= shape[d];
      }
    }
  return true;
}

}  // namespace

std::optional<std::vector<int>> detect_grid_shape(const CommGraph& graph, int max_dims) {
  const TaskId n = graph.num_tasks();
  if (n <= 1 || graph.num_edges() == 0) return std::vector<int>{std::max<int>(n, 1)};
  for (int dims = 1; dims <= max_dims; ++dims) {
    std::vector<std::vector<int>> shapes;
    std::vector<int> prefix;
    factorisations(n, dims, prefix, shapes);
    std::stable_sort(shapes.begin(), shapes.end(), [](const auto& x, const auto& y) {
      return *std::max_element(x.begin(), x.end()) < *std::max_element(y.begin(), y.end());
    });
    for (const auto& shape : shapes)
      if (shape_fits(graph, shape)) return shape;
  }
  return std::nullopt;
}

}  // namespace rankmap::graph
