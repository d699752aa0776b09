// Checks every guarantee of the alias flow on one load vector, independently of how it was computed.
#pragma once

#include <rankmap/balance/alias_flow.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

namespace rankmap::balance::testing {

/// The least possible largest amount received over all balanced outcomes (every bin ends with
/// k or k-1, exactly kP-T of them with k-1): a bin must receive at least its target minus its
/// count, and handing the k-1 targets to the emptiest bins minimises the largest such
/// difference (an exchange argument; the brute-force test checks it). Computed by sorting,
/// unlike the flow.
inline long long least_max_received(std::vector<long long> counts) {
  if (counts.empty()) return 0;
  const auto p = static_cast<long long>(counts.size());
  const long long total = std::accumulate(counts.begin(), counts.end(), 0LL);
  const long long k = (total + p - 1) / p;
  const long long phantoms = k * p - total;
  std::sort(counts.begin(), counts.end());
  long long best = 0;
  for (long long i = 0; i < p; ++i) best = std::max(best, (i < phantoms ? k - 1 : k) - counts[i]);
  return best;
}

/// Asserts every guarantee listed in alias_flow.hpp for `flow` computed from `counts`.
inline void expect_alias_guarantees(const std::vector<long long>& counts, const AliasFlow& flow) {
  const std::size_t p = counts.size();
  ASSERT_EQ(flow.sender.size(), p);
  ASSERT_EQ(flow.amount.size(), p);
  if (p == 0) return;
  const long long total = std::accumulate(counts.begin(), counts.end(), 0LL);
  const auto bins = static_cast<long long>(p);
  const long long k = total / bins + (total % bins != 0);
  EXPECT_EQ(flow.target, k);

  std::vector<long long> sent(p, 0);
  std::size_t messages = 0;
  long long max_received = 0;
  for (std::size_t i = 0; i < p; ++i) {
    const int from = flow.sender[i];
    if (from < 0) {
      ASSERT_EQ(from, -1) << "bin " << i;
      ASSERT_EQ(flow.amount[i], 0) << "bin " << i;
      continue;
    }
    ASSERT_LT(static_cast<std::size_t>(from), p) << "bin " << i;
    ASSERT_NE(static_cast<std::size_t>(from), i) << "bin " << i << " receives from itself";
    ASSERT_GT(flow.amount[i], 0) << "bin " << i;
    sent[from] += flow.amount[i];
    ++messages;
    max_received = std::max(max_received, flow.amount[i]);
  }
  long long below_k = 0;
  for (std::size_t i = 0; i < p; ++i) {
    EXPECT_LE(sent[i], counts[i]) << "bin " << i << " sends more than it holds";
    const long long after = counts[i] - sent[i] + flow.amount[i];
    EXPECT_TRUE(after == k || after == k - 1) << "bin " << i << " ends with " << after << ", k = " << k;
    below_k += after == k - 1;
  }
  EXPECT_EQ(below_k, k * bins - total) << "the bins below k are exactly the phantoms";
  EXPECT_LE(messages, p - 1);
  EXPECT_EQ(max_received, least_max_received(counts));
  long long largest_deficit = 0;
  for (const long long c : counts) largest_deficit = std::max(largest_deficit, k - c);
  if (total % bins == 0)
    EXPECT_EQ(max_received, largest_deficit);
  else
    EXPECT_LE(max_received, largest_deficit);
}

}  // namespace rankmap::balance::testing
