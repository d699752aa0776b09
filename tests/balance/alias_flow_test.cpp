// The alias-method flows: hand-worked examples, phantom tasks, and the at-most-P-1-messages bound.
#include "flow_checks.hpp"

#include <rankmap/balance/alias_flow.hpp>
#include <rankmap/types.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace rankmap::balance {
namespace {

using testing::expect_alias_guarantees;
using testing::least_max_received;

std::vector<int> senders(const AliasFlow& f) { return f.sender; }
std::vector<long long> amounts(const AliasFlow& f) { return f.amount; }

// The worked example of docs/balance.md, P = 6, T = 30, k = 5. Deficit bins 0,1,2 need 4
// each; surplus bins 3,4,5 hold 8,9,10. Bin 3 fills bin 0 and drops to 4, so it becomes the
// deficit bin (needs 1); bin 4 fills bin 3 (9 -> 8) and bin 1 (8 -> 4), becomes the deficit
// bin; bin 5 fills bin 4 (10 -> 9) and bin 2 (9 -> 5). Five messages, P - 1.
TEST(AliasFlow, WorkedExampleIsTightAtPMinusOneMessages) {
  const std::vector<long long> counts{1, 1, 1, 8, 9, 10};
  const AliasFlow f = alias_flow(counts);
  EXPECT_EQ(f.target, 5);
  EXPECT_EQ(senders(f), (std::vector<int>{3, 4, 5, 4, 5, -1}));
  EXPECT_EQ(amounts(f), (std::vector<long long>{4, 4, 4, 1, 1, 0}));
  expect_alias_guarantees(counts, f);
}

// The same shape for any P = 2n and k >= 3: n bins with 1 task, then near-full bins holding
// 2k-2, 2k-1, ..., 2k-1, 2k. Every surplus bin but the last dips to k-1, so all P bins but
// the last receive.
TEST(AliasFlow, HalfNearEmptyHalfNearFullNeedsPMinusOneMessages) {
  for (const int n : {2, 3, 10, 500}) {
    for (const long long k : {3LL, 7LL, 1000LL}) {
      std::vector<long long> counts(n, 1);
      counts.push_back(2 * k - 2);
      for (int i = 0; i < n - 2; ++i) counts.push_back(2 * k - 1);
      counts.push_back(2 * k);
      const AliasFlow f = alias_flow(counts);
      ASSERT_EQ(f.target, k);
      const auto messages = std::count_if(f.sender.begin(), f.sender.end(), [](int s) { return s >= 0; });
      EXPECT_EQ(messages, 2 * n - 1) << "n = " << n << ", k = " << k;
      expect_alias_guarantees(counts, f);
    }
  }
}

// T = 5, P = 4, k = 2: three phantoms go to the three emptiest bins, 3 (0 tasks), 2 (1) and,
// of the two bins with 2, the earlier one, 0. With them the bins hold 3,2,2,1: bin 0 fills
// bin 3 with one task. Afterwards 1,2,1,1.
TEST(AliasFlow, PhantomsGoToTheEmptiestBinsAndAreNeverSent) {
  const std::vector<long long> counts{2, 2, 1, 0};
  const AliasFlow f = alias_flow(counts);
  EXPECT_EQ(f.target, 2);
  EXPECT_EQ(senders(f), (std::vector<int>{-1, -1, -1, 0}));
  EXPECT_EQ(amounts(f), (std::vector<long long>{0, 0, 0, 1}));
  expect_alias_guarantees(counts, f);
}

// T = 9, P = 4, k = 3: phantoms on bin 3 and, among the bins with 3, bins 0 and 1, which
// then hold 4,4,3,1. Bin 0 fills bin 3 (needs 2) and drops to 2, so bin 1 fills bin 0 with
// one. Bin 3 receives 2 = k - 1 - 0, one less than its deficit against k: that is the
// optimum when one bin may end with k - 1.
TEST(AliasFlow, PhantomOnTheEmptiestBinLowersTheLargestMessage) {
  const std::vector<long long> counts{3, 3, 3, 0};
  const AliasFlow f = alias_flow(counts);
  EXPECT_EQ(senders(f), (std::vector<int>{1, -1, -1, 0}));
  EXPECT_EQ(amounts(f), (std::vector<long long>{1, 0, 0, 2}));
  EXPECT_EQ(least_max_received(counts), 2);
  expect_alias_guarantees(counts, f);
}

// T = 5, P = 4, k = 2: one full bin spreads over three empty ones, each of which holds a
// phantom and so needs one task.
TEST(AliasFlow, OneFullBinFillsAllOthers) {
  const std::vector<long long> counts{5, 0, 0, 0};
  const AliasFlow f = alias_flow(counts);
  EXPECT_EQ(senders(f), (std::vector<int>{-1, 0, 0, 0}));
  EXPECT_EQ(amounts(f), (std::vector<long long>{0, 1, 1, 1}));
  expect_alias_guarantees(counts, f);
}

// T = 3001, P = 4, k = 751: the three phantoms go to 0 and both 1000s, counts far from the
// smallest one (the flow then selects them without its histogram). With phantoms the bins
// hold 1, 1001, 1001, 1001: bin 1 fills bin 0 (750) and drops to 251, bin 2 fills bin 1 (500)
// and drops to 501, bin 3 fills bin 2 (250). Afterwards 750, 750, 750, 751.
TEST(AliasFlow, PhantomsAmongCountsFarFromTheSmallest) {
  const std::vector<long long> counts{0, 1000, 1000, 1001};
  const AliasFlow f = alias_flow(counts);
  EXPECT_EQ(f.target, 751);
  EXPECT_EQ(senders(f), (std::vector<int>{1, 2, 3, -1}));
  EXPECT_EQ(amounts(f), (std::vector<long long>{750, 500, 250, 0}));
  expect_alias_guarantees(counts, f);
}

TEST(AliasFlow, BalancedAndTrivialInputsMoveNothing) {
  for (const std::vector<long long>& counts :
       {std::vector<long long>{}, {0}, {7}, {0, 0, 0}, {4, 4, 4, 4}, {3, 3, 2, 3}, {1, 0, 1, 0, 0}}) {
    const AliasFlow f = alias_flow(counts);
    EXPECT_TRUE(std::all_of(f.sender.begin(), f.sender.end(), [](int s) { return s == -1; }));
    expect_alias_guarantees(counts, f);
  }
}

// With the bins taken in the order 0,3,2,1 the surplus bins come as 3,1 and the deficit
// bins as 0,2: 3 fills 0 and 1 fills 2 (index order would pair 1 with 0 and 3 with 2).
TEST(AliasFlow, BinOrderDecidesThePairing) {
  const std::vector<long long> counts{0, 4, 0, 4};
  EXPECT_EQ(senders(alias_flow(counts)), (std::vector<int>{1, -1, 3, -1}));
  const std::vector<int> order{0, 3, 2, 1};
  const AliasFlow f = alias_flow(counts, order);
  EXPECT_EQ(senders(f), (std::vector<int>{3, -1, 1, -1}));
  EXPECT_EQ(amounts(f), (std::vector<long long>{2, 0, 2, 0}));
  expect_alias_guarantees(counts, f);
}

TEST(AliasFlow, RejectsBadInputByName) {
  EXPECT_THROW(alias_flow(std::vector<long long>{1, -1}), InputError);
  EXPECT_THROW(alias_flow(std::vector<long long>{LLONG_MAX, 1}), InputError);
  const std::vector<long long> counts{1, 2, 3};
  EXPECT_THROW(alias_flow(counts, std::vector<int>{0, 1}), InputError);
  EXPECT_THROW(alias_flow(counts, std::vector<int>{0, 1, 1}), InputError);
  EXPECT_THROW(alias_flow(counts, std::vector<int>{0, 1, 3}), InputError);
  EXPECT_THROW(alias_flow(counts, std::vector<int>{0, -1, 2}), InputError);
  std::vector<int> sender(2);
  std::vector<long long> amount(3);
  EXPECT_THROW(alias_flow_into(counts, {}, sender, amount), InputError);
  try {
    alias_flow(std::vector<long long>{4, 2, -3});
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "alias flow: counts[2] is negative (-3)");
  }
}

// Counts near the top of the long long range: the total still fits, and nothing overflows.
TEST(AliasFlow, HugeCountsDoNotOverflow) {
  const long long big = LLONG_MAX / 4;
  const std::vector<long long> counts{big, 0, big, 3};
  expect_alias_guarantees(counts, alias_flow(counts));
}

// The optimum of least_max_received() checked by brute force: every choice of which
// kP - T bins end with k - 1, on all vectors of up to 6 bins with counts 0..4.
TEST(AliasFlow, LeastMaxReceivedMatchesBruteForce) {
  for (int p = 1; p <= 6; ++p) {
    std::vector<long long> counts(p, 0);
    for (;;) {
      const long long total = std::accumulate(counts.begin(), counts.end(), 0LL);
      const long long k = (total + p - 1) / p;
      const long long phantoms = k * p - total;
      long long best = LLONG_MAX;
      for (int mask = 0; mask < (1 << p); ++mask) {
        if (__builtin_popcount(mask) != phantoms) continue;
        long long worst = 0;
        for (int i = 0; i < p; ++i) worst = std::max(worst, k - ((mask >> i) & 1) - counts[i]);
        best = std::min(best, worst);
      }
      ASSERT_EQ(least_max_received(counts), best);
      expect_alias_guarantees(counts, alias_flow(counts));
      int i = 0;
      while (i < p && counts[i] == 4) counts[i++] = 0;
      if (i == p) break;
      ++counts[i];
    }
  }
}

// A load vector family for the random tests.
enum class Shape { uniform, branching, one_heavy, two_level, sparse, near_balanced, wide };

std::vector<long long> random_counts(Shape shape, int p, std::mt19937_64& rng) {
  std::vector<long long> c(p, 0);
  std::uniform_int_distribution<long long> small(0, 40);
  switch (shape) {
    case Shape::uniform:
      for (auto& x : c) x = small(rng);
      break;
    case Shape::branching: {
      std::poisson_distribution<long long> poisson(50);
      for (auto& x : c) x = poisson(rng);
      break;
    }
    case Shape::one_heavy:
      c[std::uniform_int_distribution<int>(0, p - 1)(rng)] = small(rng) * p + small(rng);
      break;
    case Shape::two_level:
      for (int i = 0; i < p; ++i) c[i] = (i % 2 == 0) ? small(rng) % 3 : 60 + small(rng) % 3;
      break;
    case Shape::sparse:
      for (auto& x : c) x = std::bernoulli_distribution(0.1)(rng) ? small(rng) : 0;
      break;
    case Shape::near_balanced:
      for (auto& x : c) x = 20 + small(rng) % 3;
      break;
    case Shape::wide:
      for (auto& x : c) x = std::uniform_int_distribution<long long>(0, 1'000'000'000)(rng);
      break;
  }
  return c;
}

TEST(AliasFlow, GuaranteesHoldOnRandomLoadVectors) {
  std::mt19937_64 rng(20240611);
  for (const Shape shape : {Shape::uniform, Shape::branching, Shape::one_heavy, Shape::two_level, Shape::sparse,
                            Shape::near_balanced, Shape::wide}) {
    for (int trial = 0; trial < 300; ++trial) {
      const int p = std::uniform_int_distribution<int>(1, trial < 250 ? 40 : 3000)(rng);
      const std::vector<long long> counts = random_counts(shape, p, rng);
      const AliasFlow plain = alias_flow(counts);
      expect_alias_guarantees(counts, plain);
      std::vector<int> order(p);
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), rng);
      expect_alias_guarantees(counts, alias_flow(counts, order));
      if (::testing::Test::HasFailure()) {
        ADD_FAILURE() << "shape " << static_cast<int>(shape) << ", trial " << trial << ", P = " << p;
        return;
      }
    }
  }
}

// Adversarial shapes: everything in the last bin, everything in the first, a staircase, and
// sorted ascending and descending, each with T a multiple of P and not.
TEST(AliasFlow, GuaranteesHoldOnAdversarialLoadVectors) {
  for (const int p : {2, 3, 7, 64, 1001}) {
    for (const long long extra : {0LL, 1LL, static_cast<long long>(p - 1)}) {
      std::vector<std::vector<long long>> cases;
      std::vector<long long> last(p, 0), first(p, 0), stairs(p), down(p);
      last[p - 1] = 10LL * p + extra;
      first[0] = 10LL * p + extra;
      for (int i = 0; i < p; ++i) stairs[i] = i;
      stairs[0] += extra;
      for (int i = 0; i < p; ++i) down[i] = stairs[p - 1 - i];
      for (const auto& c : {last, first, stairs, down}) {
        SCOPED_TRACE(::testing::Message() << "P = " << p << ", extra = " << extra);
        expect_alias_guarantees(c, alias_flow(c));
      }
    }
  }
}

// The core is meant for the largest machines: a million bins, checked in full.
TEST(AliasFlow, GuaranteesHoldOnAMillionBins) {
  std::mt19937_64 rng(7);
  std::poisson_distribution<long long> poisson(30);
  std::vector<long long> counts(1'000'000);
  for (auto& x : counts) x = poisson(rng);
  expect_alias_guarantees(counts, alias_flow(counts));
}

}  // namespace
}  // namespace rankmap::balance
