// MaxTree: the maximum, how many channels carry it, and its position after point updates.
#include "max_tree.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace rankmap::mapping::detail {
namespace {

TEST(MaxTree, CountsTheChannelsAtTheMaximum) {
  MaxTree tree({3, 1, 3, 2, 0});
  EXPECT_EQ(tree.max(), 3);
  EXPECT_EQ(tree.count_at_max(), 2u);
  tree.set(0, 1);
  EXPECT_EQ(tree.count_at_max(), 1u);
  EXPECT_EQ(tree.argmax(), 2u);
  tree.set(4, 5);
  EXPECT_EQ(tree.max(), 5);
  EXPECT_EQ(tree.count_at_max(), 1u);
  tree.set(4, 2);
  EXPECT_EQ(tree.max(), 3);
  EXPECT_EQ(tree.count_at_max(), 1u);
  tree.set(2, 2);
  EXPECT_EQ(tree.max(), 2);
  EXPECT_EQ(tree.count_at_max(), 3u);  // channels 2, 3 and 4
}

// Many blocks, few distinct loads (so that ties and lowered block maxima are common), and every
// answer checked against a scan of the loads after each update.
TEST(MaxTree, AgreesWithAScanUnderRandomUpdates) {
  std::mt19937 random(7);
  for (std::size_t size : {1u, 63u, 64u, 65u, 1000u}) {
    std::vector<double> loads(size);
    for (double& l : loads) l = static_cast<double>(random() % 5);
    MaxTree tree(loads);
    for (int step = 0; step < 5000; ++step) {
      const std::size_t i = random() % size;
      loads[i] = static_cast<double>(random() % (step % 100 < 50 ? 5 : 8));
      tree.set(i, loads[i]);
      const auto top = std::max_element(loads.begin(), loads.end());
      ASSERT_EQ(tree.max(), *top) << "size " << size << ", step " << step;
      ASSERT_EQ(tree.count_at_max(), static_cast<std::size_t>(std::count(loads.begin(), loads.end(), *top)));
      ASSERT_EQ(tree.argmax(), static_cast<std::size_t>(top - loads.begin()));
      ASSERT_EQ(tree.value(i), loads[i]);
    }
  }
}

}  // namespace
}  // namespace rankmap::mapping::detail
