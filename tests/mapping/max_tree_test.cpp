// MaxTree: the maximum, how many channels carry it, and its position after point updates.
#include "max_tree.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace rankmap::mapping::detail
