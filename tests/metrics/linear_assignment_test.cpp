// Tests of the capacitated assignment solver against hand-solved and brute-forced instances.
#include <rankmap/metrics/linear_assignment.hpp>
#include <rankmap/types.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace rankmap::metrics {
namespace {

TEST(Assignment, ClassicThreeByThree) {
  // Rows pick columns 1, 0, 2: 1 + 2 + 2 = 5, the only assignment below 6 (checked by listing all 6).
  const std::vector<double> cost = {4, 1, 3,  //
                                    2, 0, 5,  //
                                    3, 2, 2};
  const std::vector<int> capacity = {1, 1, 1};
  const Assignment a = solve_assignment(cost, 3, capacity);
  EXPECT_EQ(a.column_of_row, (std::vector<int>{1, 0, 2}));
  EXPECT_DOUBLE_EQ(a.cost, 5);
}

TEST(Assignment, CapacitiesLetRowsShareACheapColumn) {
  // Column 0 is cheapest for all three rows but holds two: the row losing least (row 2: 5 - 1 = 4
  // versus 9 and 9) goes to column 1. Cost 1 + 1 + 5 = 7.
  const std::vector<double> cost = {1, 10,  //
                                    1, 10,  //
                                    1, 5};
  const std::vector<int> capacity = {2, 1};
  const Assignment a = solve_assignment(cost, 3, capacity);
  EXPECT_EQ(a.column_of_row, (std::vector<int>{0, 0, 1}));
  EXPECT_DOUBLE_EQ(a.cost, 7);
}

double brute_force(const std::vector<double>& cost, int rows, const std::vector<int>& capacity) {
  // Every assignment of rows to the slots obtained by repeating each column capacity times.
  std::vector<int> slots;
  for (std::size_t j = 0; j < capacity.size(); ++j) slots.insert(slots.end(), capacity[j], static_cast<int>(j));
  std::sort(slots.begin(), slots.end());
  double best = 1e300;
  do {
    double c = 0;
    for (int r = 0; r < rows; ++r) c += cost[r * capacity.size() + slots[r]];
    best = std::min(best, c);
  } while (std::next_permutation(slots.begin(), slots.end()));
  return best;
}

TEST(Assignment, MatchesBruteForceOnRandomInstances) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> value(0, 20);
  for (int trial = 0; trial < 40; ++trial) {
    const std::vector<int> capacity = trial % 2 ? std::vector<int>{1, 1, 1, 1, 1, 1} : std::vector<int>{2, 1, 3, 1};
    const int rows = trial % 3 == 0 ? 5 : 6;
    std::vector<double> cost(rows * capacity.size());
    for (double& c : cost) c = value(rng);
    const Assignment a = solve_assignment(cost, rows, capacity);
    EXPECT_DOUBLE_EQ(a.cost, brute_force(cost, rows, capacity)) << "trial " << trial;
    std::vector<int> load(capacity.size(), 0);
    for (int c : a.column_of_row) ++load[c];
    for (std::size_t j = 0; j < capacity.size(); ++j) EXPECT_LE(load[j], capacity[j]);
  }
}

TEST(Assignment, RefusesTooLittleCapacity) {
  const std::vector<double> cost = {1, 2, 3, 4};
  const std::vector<int> capacity = {1};
  EXPECT_THROW(solve_assignment(std::span<const double>(cost).first(2), 2, capacity), InputError);
}

}  // namespace
}  // namespace rankmap::metrics
