// The symmetrized graph that auto's members share.
#include "symmetrized_memo.hpp"

#include "factories.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

namespace rankmap::mapping {
namespace {

void expect_same_edges(const graph::CommGraph& a, const graph::CommGraph& b) {
  ASSERT_EQ(a.num_tasks(), b.num_tasks());
  for (TaskId t = 0; t < a.num_tasks(); ++t) {
    const auto ta = a.out_neighbors(t), tb = b.out_neighbors(t);
    const auto wa = a.out_weights(t), wb = b.out_weights(t);
    EXPECT_EQ(std::vector<TaskId>(ta.begin(), ta.end()), std::vector<TaskId>(tb.begin(), tb.end())) << "task " << t;
    EXPECT_EQ(std::vector<double>(wa.begin(), wa.end()), std::vector<double>(wb.begin(), wb.end())) << "task " << t;
  }
}

TEST(SymmetrizedMemo, SharesOneCopyOfItsOwnGraphWhileItLives) {
  const graph::CommGraph random = testing::random_graph(64, 4, 1);
  const graph::CommGraph ring = testing::ring_graph(24);
  EXPECT_NE(detail::symmetrized(random), detail::symmetrized(random)) << "no memo: a copy per call";
  std::shared_ptr<const graph::CommGraph> kept;
  {
    const detail::SymmetrizedMemo memo(random);
    kept = detail::symmetrized(random);
    EXPECT_EQ(detail::symmetrized(random), kept);
    expect_same_edges(*kept, random.symmetrized());
    EXPECT_NE(detail::symmetrized(ring), detail::symmetrized(ring)) << "another graph than the memo's";
  }
  EXPECT_NE(detail::symmetrized(random), kept) << "the memo is gone";
  expect_same_edges(*kept, random.symmetrized());  // the copy outlives its memo
}

TEST(SymmetrizedMemo, AnotherThreadUsesTheCopyItIsHanded) {
  const graph::CommGraph random = testing::random_graph(64, 4, 2);
  const detail::SymmetrizedMemo memo(random);
  const std::shared_ptr<const graph::CommGraph> built = detail::symmetrized(random);
  std::shared_ptr<const graph::CommGraph> seen_with, seen_without;
  std::thread([&] {
    seen_without = detail::symmetrized(random);  // memos are per thread
    const detail::SymmetrizedMemo handed(random, built);
    seen_with = detail::symmetrized(random);
  }).join();
  EXPECT_EQ(seen_with, built);
  EXPECT_NE(seen_without, built);
}

}  // namespace
}  // namespace rankmap::mapping
