// Capacitated linear assignment by successive shortest augmenting paths (Jonker-Volgenant augmentation).
#include <rankmap/metrics/linear_assignment.hpp>
#include <rankmap/types.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace rankmap::metrics {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

void check_input(std::span<const double> cost, int rows, std::span<const int> capacity) {
  const std::size_t cols = capacity.size();
  if (rows < 0 || cost.size() != static_cast<std::size_t>(rows) * cols)
    throw InputError("assignment: cost matrix has " + std::to_string(cost.size()) + " entries, expected " +
                     std::to_string(rows) + " x " + std::to_string(cols));
  long long total = 0;
  for (int c : capacity) total += std::max(c, 0);
  if (total < rows)
    throw InputError("assignment: columns hold " + std::to_string(total) + " rows, fewer than " + std::to_string(rows));
  for (double c : cost)
    if (!std::isfinite(c)) throw InputError("assignment: a cost is not finite");
}

}  // namespace

Assignment solve_assignment(std::span<const double> cost, int rows, std::span<const int> capacity) {
  check_input(cost, rows, capacity);
  const int cols = static_cast<int>(capacity.size());
  // Column potentials and the sink's keep every residual arc's reduced cost non-negative. Row
  // potentials cancel out of every path through an assigned row, so they are never stored.
  std::vector<double> pot(cols, 0.0);
  double pot_sink = 0;
  std::vector<int> column_of(rows, -1);
  std::vector<std::vector<int>> rows_of(cols);
  std::vector<double> dist(cols);
  std::vector<int> pred(cols);
  std::vector<char> done(cols);
  for (int r = 0; r < rows; ++r) {
    const double* c = cost.data() + static_cast<std::size_t>(r) * cols;
    double shift = -kInfinity;
    for (int j = 0; j < cols; ++j) shift = std::max(shift, pot[j] - c[j]);
    for (int j = 0; j < cols; ++j) {
      dist[j] = c[j] + shift - pot[j];
      pred[j] = r;
      done[j] = 0;
    }
    double sink_dist = kInfinity;
    int last = -1;
    for (;;) {
      int jmin = -1;
      double dmin = kInfinity;
      for (int j = 0; j < cols; ++j)
        if (!done[j] && dist[j] < dmin) dmin = dist[j], jmin = j;
      if (jmin < 0 || sink_dist <= dmin) break;
      done[jmin] = 1;
      if (static_cast<int>(rows_of[jmin].size()) < capacity[jmin] && dmin + pot[jmin] - pot_sink < sink_dist) {
        sink_dist = dmin + pot[jmin] - pot_sink;
        last = jmin;
      }
      for (int i : rows_of[jmin]) {
        const double* ci = cost.data() + static_cast<std::size_t>(i) * cols;
        const double base = dmin + pot[jmin] - ci[jmin];
        for (int j = 0; j < cols; ++j) {
          if (done[j]) continue;
          const double d = base + ci[j] - pot[j];
          if (d < dist[j]) dist[j] = d, pred[j] = i;
        }
      }
    }
    for (int j = 0; j < cols; ++j) pot[j] += std::min(dist[j], sink_dist);
    pot_sink += sink_dist;
    for (int j = last;;) {
      const int i = pred[j];
      const int previous = column_of[i];
      if (previous >= 0) std::erase(rows_of[previous], i);
      rows_of[j].push_back(i);
      column_of[i] = j;
      if (i == r) break;
      j = previous;
    }
  }
  Assignment result{std::move(column_of), 0};
  for (int r = 0; r < rows; ++r) result.cost += cost[static_cast<std::size_t>(r) * cols + result.column_of_row[r]];
  return result;
}

}  // namespace rankmap::metrics
