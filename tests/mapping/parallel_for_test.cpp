// The parallel loop of the mappers that run threads: every item once, workers numbered below the
// thread count, and a body's exception brought back to the caller.
#include "parallel_for.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

namespace rankmap::mapping::detail {
namespace {

TEST(ParallelFor, DoesEveryItemOnceOnWorkersBelowTheThreadCount) {
  std::vector<std::atomic<int>> done(1000);
  std::atomic<int> highest_worker{0};
  parallel_for(done.size(), 3, [&](std::size_t i, int worker) {
    ++done[i];
    int seen = highest_worker.load();
    while (worker > seen && !highest_worker.compare_exchange_weak(seen, worker)) {
    }
  });
  for (const auto& d : done) ASSERT_EQ(d.load(), 1);
  EXPECT_LT(highest_worker.load(), 3);
}

TEST(ParallelFor, NoMoreWorkersThanItems) {
  std::atomic<int> highest_worker{0};
  parallel_for(2, 8, [&](std::size_t, int worker) {
    int seen = highest_worker.load();
    while (worker > seen && !highest_worker.compare_exchange_weak(seen, worker)) {
    }
  });
  EXPECT_LT(highest_worker.load(), 2);
}

TEST(ParallelFor, RethrowsABodysExceptionOnTheCaller) {
  EXPECT_THROW(parallel_for(100, 4,
                            [](std::size_t i, int) {
                              if (i == 37) throw std::runtime_error("item 37");
                            }),
               std::runtime_error);
}

}  // namespace
}  // namespace rankmap::mapping::detail
