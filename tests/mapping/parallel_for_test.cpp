// The parallel loop of the mappers that run threads: every item once, workers numbered below the
// thread count, a body's exception brought back to the caller, and threads the system refuses
// leaving their items to the workers that run.
#include "parallel_for.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace rankmap::mapping::detail {
namespace {

/// Raises `highest` to `worker`; bodies call it from every thread at once.
void note_worker(std::atomic<int>& highest, int worker) {
  int seen = highest.load();
  while (worker > seen && !highest.compare_exchange_weak(seen, worker)) {
  }
}

TEST(ParallelFor, DoesEveryItemOnceOnWorkersBelowTheThreadCount) {
  std::vector<std::atomic<int>> done(1000);
  std::atomic<int> highest_worker{0};
  parallel_for(done.size(), 3, [&](std::size_t i, int worker) {
    ++done[i];
    note_worker(highest_worker, worker);
  });
  for (const auto& d : done) ASSERT_EQ(d.load(), 1);
  EXPECT_LT(highest_worker.load(), 3);
}

TEST(ParallelFor, NoMoreWorkersThanItems) {
  std::atomic<int> highest_worker{0};
  parallel_for(2, 8, [&](std::size_t, int worker) { note_worker(highest_worker, worker); });
  EXPECT_LT(highest_worker.load(), 2);
}

TEST(ParallelFor, RethrowsABodysExceptionOnTheCaller) {
  EXPECT_THROW(parallel_for(100, 4,
                            [](std::size_t i, int) {
                              if (i == 37) throw std::runtime_error("item 37");
                            }),
               std::runtime_error);
}

std::thread refuse_thread(std::function<void()>) {
  throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again), "no more threads");
}

TEST(ParallelFor, ItemsOfThreadsTheSystemRefusedRunOnTheCaller) {
  std::vector<int> worker_of(50, -1);
  parallel_for(worker_of.size(), 4, [&](std::size_t i, int worker) { worker_of[i] = worker; }, {}, &refuse_thread);
  for (int w : worker_of) ASSERT_EQ(w, 0);
}

std::atomic<int> threads_started{0};

/// Starts the first helper and refuses the others.
std::thread start_one_thread(std::function<void()> run) {
  if (threads_started.fetch_add(1) > 0) return refuse_thread(std::move(run));
  return std::thread(std::move(run));
}

TEST(ParallelFor, ThreadsThatStartTakeTheItemsOfThoseRefused) {
  threads_started = 0;
  std::vector<std::atomic<int>> done(1000);
  std::atomic<int> highest_worker{0};
  parallel_for(done.size(), 4, [&](std::size_t i, int worker) {
    ++done[i];
    note_worker(highest_worker, worker);
  }, {}, &start_one_thread);
  for (const auto& d : done) ASSERT_EQ(d.load(), 1);
  EXPECT_LE(highest_worker.load(), 1);  // only the caller and the one helper that started
  EXPECT_EQ(threads_started.load(), 2);  // after the first refusal the loop asks for no more
}

}  // namespace
}  // namespace rankmap::mapping::detail
