// Minimum-cost assignment of rows to capacitated columns (shortest augmenting paths with potentials).
#pragma once

#include <span>
#include <vector>

namespace rankmap::metrics {

struct Assignment {
  std::vector<int> column_of_row;
  double cost = 0;
};

/// Assigns every row to one column, column j taking at most capacity[j] rows, at the least total cost.
///
/// `cost` is a dense row-major rows x capacity.size() matrix. With every capacity 1 this is the
/// linear assignment problem. The method is the augmentation phase of Jonker and Volgenant: rows are
/// added one at a time along a shortest augmenting path (Dijkstra on reduced costs), generalised to
/// capacities with a sink behind the columns. O(rows^2 * columns) in the worst case, far less on the
/// cost matrices of the Gilmore-Lawler bound. Throws InputError if the capacities sum to fewer than
/// `rows`, the matrix has the wrong size or a cost is not finite.
Assignment solve_assignment(std::span<const double> cost, int rows, std::span<const int> capacity);

}  // namespace rankmap::metrics
