// Migration plans as lists of messages, the QMC-style greedy baseline, and the figures the comparison reports.
#pragma once

#include <rankmap/balance/alias_flow.hpp>

#include <span>
#include <vector>

namespace rankmap::bench {

/// One message: `n` tasks from bin `from` to bin `to`.
struct Transfer {
  int from;
  int to;
  long long n;
};

/// The messages of an alias flow.
std::vector<Transfer> transfers_of(const balance::AliasFlow& flow);

/// The baseline QMC codes use: each bin's target is floor(T/P) or ceil(T/P) (the ceilings go
/// to the fullest bins, which moves the fewest tasks), surplus and deficit bins are each
/// sorted by amount, largest first, and paired greedily: the largest surplus fills the
/// largest deficit as far as it can, then whichever is exhausted is replaced by the next.
std::vector<Transfer> greedy_sorted_transfers(std::span<const long long> counts);

struct TransferStats {
  long long max_messages_received = 0;
  long long max_tasks_received = 0;
  long long max_messages_sent = 0;
  long long total_moved = 0;
  long long total_messages = 0;
};

/// Throws std::logic_error unless the plan leaves every bin with floor or ceil of T/P tasks
/// and no bin sends more than it holds beforehand.
TransferStats stats_of(std::span<const long long> counts, std::span<const Transfer> transfers);

}  // namespace rankmap::bench
