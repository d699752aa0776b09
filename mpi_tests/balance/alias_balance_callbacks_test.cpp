// rankmap_alias_balance_callbacks: tasks kept by the caller, moved through pack/unpack callbacks.
#include "population.hpp"

#include <rankmap.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace rankmap::balance::testing {
namespace {

struct Walker {
  long long id;
  long long check;
  double position[3];
};

Walker walker_of(long long id) {
  const double x = static_cast<double>(id % 1024);
  return {id, check_of(id), {x, x + 0.25, x + 0.5}};
}

// The caller's own store, with switches to make one callback fail.
struct Store {
  std::vector<Walker> tasks;
  int pack_calls = 0;
  int failing_pack_call = -1;
  bool failing_unpack = false;
};

int pack_walkers(void* user, long long n, void* buffer) {
  Store& store = *static_cast<Store*>(user);
  if (store.pack_calls++ == store.failing_pack_call) return 1;
  const std::size_t keep = store.tasks.size() - static_cast<std::size_t>(n);
  std::memcpy(buffer, store.tasks.data() + keep, static_cast<std::size_t>(n) * sizeof(Walker));
  store.tasks.resize(keep);
  return 0;
}

int unpack_walkers(void* user, long long n, const void* buffer) {
  Store& store = *static_cast<Store*>(user);
  if (store.failing_unpack) return 1;
  const auto* walkers = static_cast<const Walker*>(buffer);
  store.tasks.insert(store.tasks.end(), walkers, walkers + n);
  return 0;
}

int balance(Store& store, long long capacity, long long* new_count) {
  return rankmap_alias_balance_callbacks(static_cast<long long>(store.tasks.size()), capacity, sizeof(Walker),
                                         pack_walkers, unpack_walkers, &store, MPI_COMM_WORLD, new_count);
}

std::vector<long long> ids_of(const Store& store) {
  std::vector<long long> ids;
  for (const Walker& w : store.tasks) ids.push_back(w.id);
  return ids;
}

TEST(AliasBalanceCallbacks, HundredStepsOfBirthsAndDeathsKeepEveryTaskExactlyOnce) {
  constexpr long long capacity = 400;
  Population population(20, 2);
  for (int t = 0; t < 100; ++t) {
    SCOPED_TRACE(::testing::Message() << "step " << t);
    population.step(t, capacity);
    Store store;
    for (const long long id : population.ids()) store.tasks.push_back(walker_of(id));
    long long new_count = -1;
    ASSERT_EQ(balance(store, capacity, &new_count), RANKMAP_SUCCESS);
    EXPECT_EQ(new_count, static_cast<long long>(store.tasks.size()));
    for (const Walker& w : store.tasks) {
      const Walker expected = walker_of(w.id);
      EXPECT_EQ(w.check, expected.check);
      EXPECT_EQ(std::memcmp(w.position, expected.position, sizeof w.position), 0);
    }
    expect_every_task_kept_and_balanced(population.ids(), ids_of(store));
    population.ids() = ids_of(store);
  }
}

// Rank 0 holds 30 tasks, the others none, so rank 0 sends to every other process.
Store one_full_process() {
  Store store;
  if (world_rank() == 0)
    for (long long id = 0; id < 30; ++id) store.tasks.push_back(walker_of(id));
  return store;
}

TEST(AliasBalanceCallbacks, CapacityOverflowIsAgreedBeforeAnythingIsPacked) {
  Store store = one_full_process();
  const bool last = world_rank() == world_size() - 1;
  long long new_count = -1;
  const int status = balance(store, last && world_size() > 1 ? 0 : 100, &new_count);
  EXPECT_EQ(status, world_size() == 1 ? RANKMAP_SUCCESS : RANKMAP_ERR_CAPACITY);
  EXPECT_EQ(store.pack_calls, 0);
  EXPECT_EQ(new_count, static_cast<long long>(store.tasks.size()));
}

// The last pack call of rank 0 fails: every process returns the callback error, and rank 0
// gets back the tasks it had already packed.
TEST(AliasBalanceCallbacks, AFailingPackFailsEverywhereAndLosesNothing) {
  Store store = one_full_process();
  const int size = world_size();
  if (world_rank() == 0) store.failing_pack_call = size - 2;
  const std::vector<long long> before = ids_of(store);
  const long long count = static_cast<long long>(store.tasks.size());
  long long new_count = -1;
  EXPECT_EQ(balance(store, 100, &new_count), size == 1 ? RANKMAP_SUCCESS : RANKMAP_ERR_CALLBACK);
  EXPECT_EQ(new_count, count);
  EXPECT_EQ(static_cast<long long>(store.tasks.size()), count);
  std::vector<long long> after = ids_of(store);
  std::sort(after.begin(), after.end());
  EXPECT_EQ(after, before);
}

// A failing unpack is reported by that process alone; the others finish normally.
TEST(AliasBalanceCallbacks, AFailingUnpackIsReportedWhereItHappens) {
  Store store = one_full_process();
  const int size = world_size();
  const bool failing = size > 1 && world_rank() == size - 1;
  store.failing_unpack = failing;
  long long new_count = -1;
  EXPECT_EQ(balance(store, 100, &new_count), failing ? RANKMAP_ERR_CALLBACK : RANKMAP_SUCCESS);
  EXPECT_EQ(new_count, static_cast<long long>(store.tasks.size()));
}

TEST(AliasBalanceCallbacks, ABadArgumentOnOneProcessFailsEverywhere) {
  Store store = one_full_process();
  long long new_count = -1;
  const bool first = world_rank() == 0;
  EXPECT_EQ(rankmap_alias_balance_callbacks(static_cast<long long>(store.tasks.size()), 100, sizeof(Walker),
                                            first ? nullptr : pack_walkers, unpack_walkers, &store,
                                            MPI_COMM_WORLD, &new_count),
            RANKMAP_ERR_ARG);
  EXPECT_EQ(rankmap_alias_balance_callbacks(static_cast<long long>(store.tasks.size()), 100, first ? 0 : 8,
                                            pack_walkers, unpack_walkers, &store, MPI_COMM_WORLD, &new_count),
            RANKMAP_ERR_ARG);
  EXPECT_EQ(store.pack_calls, 0);
}

}  // namespace
}  // namespace rankmap::balance::testing
