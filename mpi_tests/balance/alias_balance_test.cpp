// rankmap_alias_balance on a typed task buffer: 100 steps of births and deaths, derived datatypes, errors.
#include "population.hpp"

#include <rankmap.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

namespace rankmap::balance::testing {
namespace {

struct Walker {
  long long id;
  int generation;
  double weight;
  long long check;
};

Walker walker_of(long long id) { return {id, static_cast<int>(id % 97), static_cast<double>(id % 1000) * 0.5, check_of(id)}; }

// A struct type with padding after `generation`, resized to the C++ struct.
MPI_Datatype walker_type() {
  const int lengths[4] = {1, 1, 1, 1};
  const MPI_Aint displs[4] = {offsetof(Walker, id), offsetof(Walker, generation), offsetof(Walker, weight),
                              offsetof(Walker, check)};
  const MPI_Datatype types[4] = {MPI_LONG_LONG, MPI_INT, MPI_DOUBLE, MPI_LONG_LONG};
  MPI_Datatype raw, resized;
  MPI_Type_create_struct(4, lengths, displs, types, &raw);
  MPI_Type_create_resized(raw, 0, sizeof(Walker), &resized);
  MPI_Type_commit(&resized);
  MPI_Type_free(&raw);
  return resized;
}

TEST(AliasBalance, HundredStepsOfBirthsAndDeathsKeepEveryTaskExactlyOnce) {
  constexpr long long capacity = 400;
  MPI_Datatype type = walker_type();
  Population population(20, 1);
  std::vector<Walker> buffer(capacity);
  for (int t = 0; t < 100; ++t) {
    SCOPED_TRACE(::testing::Message() << "step " << t);
    population.step(t, capacity);
    const std::vector<long long>& ids = population.ids();
    const auto count = static_cast<long long>(ids.size());
    for (long long i = 0; i < count; ++i) buffer[i] = walker_of(ids[i]);

    long long new_count = -1;
    ASSERT_EQ(rankmap_alias_balance(buffer.data(), count, capacity, type, MPI_COMM_WORLD, &new_count),
              RANKMAP_SUCCESS);
    std::vector<long long> after_ids;
    for (long long i = 0; i < new_count; ++i) {
      const Walker& w = buffer[i];
      EXPECT_EQ(w.check, check_of(w.id));
      EXPECT_EQ(w.generation, w.id % 97);
      EXPECT_EQ(w.weight, static_cast<double>(w.id % 1000) * 0.5);
      after_ids.push_back(w.id);
    }
    expect_every_task_kept_and_balanced(ids, after_ids);
    population.ids() = after_ids;
  }
  MPI_Type_free(&type);
}

// A type that covers only the id of each 16-byte element: the helper must never write the
// other half, neither on direct receives nor through its packed scratch buffer. The even
// sizes give the tight pattern in which every surplus process but the last also receives.
TEST(AliasBalance, WritesOnlyWhatTheDatatypeCovers) {
  struct Element {
    long long id;
    long long untouched;
  };
  MPI_Datatype type;
  MPI_Type_create_resized(MPI_LONG_LONG, 0, sizeof(Element), &type);
  MPI_Type_commit(&type);
  const int rank = world_rank();
  const int size = world_size();
  const long long k = 5;
  long long count = 2 * k - 1;
  if (rank < size / 2)
    count = 1;
  else if (rank == size / 2)
    count = 2 * k - 2;
  else if (rank == size - 1)
    count = 2 * k;
  if (size % 2 == 1 && rank == size - 1) count = k;
  constexpr long long capacity = 32;
  std::vector<Element> buffer(capacity, Element{-1, -7});
  std::vector<long long> ids;
  for (long long i = 0; i < count; ++i) {
    buffer[i].id = (static_cast<long long>(rank) << 20) + i;
    ids.push_back(buffer[i].id);
  }
  long long new_count = -1;
  ASSERT_EQ(rankmap_alias_balance(buffer.data(), count, capacity, type, MPI_COMM_WORLD, &new_count),
            RANKMAP_SUCCESS);
  std::vector<long long> after;
  for (long long i = 0; i < new_count; ++i) after.push_back(buffer[i].id);
  for (const Element& e : buffer) EXPECT_EQ(e.untouched, -7);
  expect_every_task_kept_and_balanced(ids, after);
  MPI_Type_free(&type);
}

// The last process may not grow: every process reports the capacity error and no task moves.
TEST(AliasBalance, CapacityOverflowIsReportedEverywhereAndMovesNothing) {
  const int rank = world_rank();
  const int size = world_size();
  const bool last = rank == size - 1;
  const long long count = last ? 0 : 5;
  const long long capacity = last ? 0 : 10;
  std::vector<long long> buffer(10, 0);
  for (long long i = 0; i < count; ++i) buffer[i] = 100 * rank + i;
  const std::vector<long long> original = buffer;
  long long new_count = -1;
  const int status =
      rankmap_alias_balance(buffer.data(), count, capacity, MPI_LONG_LONG, MPI_COMM_WORLD, &new_count);
  // With one process there is nobody to receive from, so nothing can overflow.
  EXPECT_EQ(status, size == 1 ? RANKMAP_SUCCESS : RANKMAP_ERR_CAPACITY);
  EXPECT_EQ(new_count, count);
  EXPECT_EQ(buffer, original);
}

// One process passes count > capacity: all return RANKMAP_ERR_ARG without deadlock.
TEST(AliasBalance, ABadArgumentOnOneProcessFailsEverywhere) {
  const int rank = world_rank();
  std::vector<long long> buffer(8, 1);
  long long new_count = -1;
  const long long count = rank == 0 ? 9 : 4;
  EXPECT_EQ(rankmap_alias_balance(buffer.data(), count, 8, MPI_LONG_LONG, MPI_COMM_WORLD, &new_count),
            RANKMAP_ERR_ARG);
  EXPECT_EQ(new_count, count);
  EXPECT_EQ(rankmap_alias_balance(buffer.data(), 4, 8, MPI_LONG_LONG, MPI_COMM_WORLD,
                                  rank == 0 ? nullptr : &new_count),
            RANKMAP_ERR_ARG);
  EXPECT_EQ(rankmap_alias_balance(buffer.data(), 4, 8, MPI_LONG_LONG, MPI_COMM_NULL, &new_count), RANKMAP_ERR_ARG);
}

}  // namespace
}  // namespace rankmap::balance::testing
