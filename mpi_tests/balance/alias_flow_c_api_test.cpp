// The C entry points of the alias flow: results and status codes.
#include <rankmap.h>

#include <gtest/gtest.h>

#include <vector>

namespace {

// The worked example of docs/balance.md (also a unit test of the C++ function).
TEST(AliasFlowCApi, WorkedExample) {
  const std::vector<long long> counts{1, 1, 1, 8, 9, 10};
  std::vector<int> sender(6, 99);
  std::vector<long long> amount(6, 99);
  ASSERT_EQ(rankmap_alias_flow(6, counts.data(), sender.data(), amount.data()), RANKMAP_SUCCESS);
  EXPECT_EQ(sender, (std::vector<int>{3, 4, 5, 4, 5, -1}));
  EXPECT_EQ(amount, (std::vector<long long>{4, 4, 4, 1, 1, 0}));
}

// Taking the bins as 0,3,2,1 pairs surplus bin 3 with deficit bin 0 and 1 with 2.
TEST(AliasFlowCApi, OrderedVariant) {
  const std::vector<long long> counts{0, 4, 0, 4};
  const std::vector<int> order{0, 3, 2, 1};
  std::vector<int> sender(4);
  std::vector<long long> amount(4);
  ASSERT_EQ(rankmap_alias_flow_ordered(4, counts.data(), order.data(), sender.data(), amount.data()),
            RANKMAP_SUCCESS);
  EXPECT_EQ(sender, (std::vector<int>{3, -1, 1, -1}));
  ASSERT_EQ(rankmap_alias_flow_ordered(4, counts.data(), nullptr, sender.data(), amount.data()), RANKMAP_SUCCESS);
  EXPECT_EQ(sender, (std::vector<int>{1, -1, 3, -1}));
}

TEST(AliasFlowCApi, StatusCodes) {
  std::vector<long long> counts{1, -2};
  std::vector<int> sender(2);
  std::vector<long long> amount(2);
  EXPECT_EQ(rankmap_alias_flow(0, nullptr, nullptr, nullptr), RANKMAP_SUCCESS);
  EXPECT_EQ(rankmap_alias_flow(-1, counts.data(), sender.data(), amount.data()), RANKMAP_ERR_ARG);
  EXPECT_EQ(rankmap_alias_flow(2, nullptr, sender.data(), amount.data()), RANKMAP_ERR_ARG);
  EXPECT_EQ(rankmap_alias_flow(2, counts.data(), sender.data(), amount.data()), RANKMAP_ERR_ARG);
  counts[1] = 2;
  const std::vector<int> not_a_permutation{1, 1};
  EXPECT_EQ(rankmap_alias_flow_ordered(2, counts.data(), not_a_permutation.data(), sender.data(), amount.data()),
            RANKMAP_ERR_ARG);
  EXPECT_STREQ(rankmap_strerror(RANKMAP_ERR_CALLBACK), "a caller-supplied callback reported failure");
}

}  // namespace
