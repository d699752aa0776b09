// Migration plans as lists of messages, the QMC-style greedy baseline, and the figures the comparison reports.
#include "transfers.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <string>

namespace rankmap::bench {

std::vector<Transfer> transfers_of(const balance::AliasFlow& flow) {
  std::vector<Transfer> out;
  for (std::size_t i = 0; i < flow.sender.size(); ++i)
    if (flow.sender[i] >= 0) out.push_back({flow.sender[i], static_cast<int>(i), flow.amount[i]});
  return out;
}

std::vector<Transfer> greedy_sorted_transfers(std::span<const long long> counts) {
  const auto p = static_cast<long long>(counts.size());
  const long long total = std::accumulate(counts.begin(), counts.end(), 0LL);
  const long long floor_share = total / p;
  std::vector<int> by_count(counts.size());
  std::iota(by_count.begin(), by_count.end(), 0);
  std::sort(by_count.begin(), by_count.end(), [&](int a, int b) { return counts[a] > counts[b]; });
  std::vector<long long> target(counts.size(), floor_share);
  for (long long i = 0; i < total % p; ++i) ++target[by_count[i]];

  struct Need {
    int bin;
    long long n;
  };
  std::vector<Need> surplus, deficit;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const long long d = counts[i] - target[i];
    if (d > 0) surplus.push_back({static_cast<int>(i), d});
    if (d < 0) deficit.push_back({static_cast<int>(i), -d});
  }
  const auto larger_first = [](const Need& a, const Need& b) { return a.n > b.n; };
  std::sort(surplus.begin(), surplus.end(), larger_first);
  std::sort(deficit.begin(), deficit.end(), larger_first);
  std::vector<Transfer> out;
  std::size_t s = 0, d = 0;
  while (s < surplus.size() && d < deficit.size()) {
    const long long n = std::min(surplus[s].n, deficit[d].n);
    out.push_back({surplus[s].bin, deficit[d].bin, n});
    surplus[s].n -= n;
    deficit[d].n -= n;
    if (surplus[s].n == 0) ++s;
    if (deficit[d].n == 0) ++d;
  }
  return out;
}

TransferStats stats_of(std::span<const long long> counts, std::span<const Transfer> transfers) {
  const std::size_t p = counts.size();
  std::vector<long long> sent(p, 0), received(p, 0), messages_in(p, 0), messages_out(p, 0);
  TransferStats stats;
  for (const Transfer& t : transfers) {
    sent[t.from] += t.n;
    received[t.to] += t.n;
    ++messages_in[t.to];
    ++messages_out[t.from];
    stats.total_moved += t.n;
    ++stats.total_messages;
  }
  const long long total = std::accumulate(counts.begin(), counts.end(), 0LL);
  const auto bins = static_cast<long long>(p);
  const long long low = total / bins, high = low + (total % bins != 0);
  for (std::size_t i = 0; i < p; ++i) {
    const long long after = counts[i] - sent[i] + received[i];
    if (sent[i] > counts[i] || after < low || after > high)
      throw std::logic_error("plan does not balance bin " + std::to_string(i));
    stats.max_messages_received = std::max(stats.max_messages_received, messages_in[i]);
    stats.max_messages_sent = std::max(stats.max_messages_sent, messages_out[i]);
    stats.max_tasks_received = std::max(stats.max_tasks_received, received[i]);
  }
  return stats;
}

}  // namespace rankmap::bench
