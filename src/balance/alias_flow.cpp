// The alias-method flow computation: partition around k = ceil(T/P), then one forward pass.
#include <rankmap/balance/alias_flow.hpp>
#include <rankmap/types.hpp>

#include <algorithm>
#include <climits>
#include <memory>
#include <cstddef>
#include <cstdint>
#include <string>

namespace rankmap::balance {
namespace {

struct Totals {
  long long target;    // k = ceil(T/P)
  long long phantoms;  // kP - T, fewer than P
  long long min;       // the smallest and largest count
  long long max;
};

Totals totals_of(std::span<const long long> counts) {
  long long total = 0;
  long long low = LLONG_MAX;
  long long high = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] < 0)
      throw InputError("alias flow: counts[" + std::to_string(i) + "] is negative (" + std::to_string(counts[i]) +
                       ")");
    if (__builtin_add_overflow(total, counts[i], &total))
      throw InputError("alias flow: the total of counts does not fit in a long long");
    low = std::min(low, counts[i]);
    high = std::max(high, counts[i]);
  }
  const auto bins = static_cast<long long>(counts.size());
  const long long rest = total % bins;
  return {total / bins + (rest != 0), rest == 0 ? 0 : bins - rest, low, high};
}

void check_order(std::span<const int> order, std::size_t bins) {
  if (order.size() != bins)
    throw InputError("alias flow: the bin order has " + std::to_string(order.size()) + " entries for " +
                     std::to_string(bins) + " bins");
  std::vector<char> seen(bins, 0);
  for (std::size_t p = 0; p < bins; ++p) {
    const int b = order[p];
    if (b < 0 || static_cast<std::size_t>(b) >= bins || seen[b])
      throw InputError("alias flow: the bin order is not a permutation of the bins: order[" + std::to_string(p) +
                       "] = " + std::to_string(b));
    seen[b] = 1;
  }
}

// The phantoms go to the bins with the fewest tasks, which is what makes the largest amount
// received optimal. They are described by a cut instead of a list: every bin with fewer than
// `value` tasks holds one, and so do the first `ties` bins (in bin order) with exactly `value`.
struct PhantomCut {
  long long value = LLONG_MIN;
  long long ties = 0;
};

// The m-th smallest count by a histogram of the counts within P of the smallest one (one pass,
// O(P) memory); only when the cut lies beyond that window are the counts there selected by
// nth_element. Four interleaved histograms keep successive increments of one bucket from
// waiting on each other.
PhantomCut phantom_cut(std::span<const long long> counts, const Totals& totals) {
  const long long phantoms = totals.phantoms;
  if (phantoms == 0) return {};
  const std::size_t bins = counts.size();
  const auto window = static_cast<std::size_t>(std::min<long long>(totals.max - totals.min, bins - 1) + 1);
  std::vector<std::uint32_t> lanes(4 * window, 0);
  const auto lane_slot = [&](std::size_t i) {
    const auto offset = static_cast<unsigned long long>(counts[i] - totals.min);
    return offset < window ? (i % 4) * window + offset : lanes.size();
  };
  std::size_t beyond = 0;
  for (std::size_t i = 0; i < bins; ++i) {
    const std::size_t slot = lane_slot(i);
    if (slot < lanes.size())
      ++lanes[slot];
    else
      ++beyond;
  }
  long long below = 0;
  for (std::size_t v = 0; v < window; ++v) {
    const long long here =
        static_cast<long long>(lanes[v]) + lanes[window + v] + lanes[2 * window + v] + lanes[3 * window + v];
    if (below + here >= phantoms) return {totals.min + static_cast<long long>(v), phantoms - below};
    below += here;
  }
  std::vector<long long> far;
  far.reserve(beyond);
  for (std::size_t i = 0; i < bins; ++i)
    if (lane_slot(i) == lanes.size()) far.push_back(counts[i]);
  const auto rank = static_cast<std::ptrdiff_t>(phantoms - below - 1);
  std::nth_element(far.begin(), far.begin() + rank, far.end());
  const long long value = far[rank];
  const auto under = std::count_if(far.begin(), far.end(), [value](long long c) { return c < value; });
  return {value, phantoms - below - under};
}

}  // namespace

long long alias_flow_into(std::span<const long long> counts, std::span<const int> order, std::span<int> sender,
                          std::span<long long> amount) {
  const std::size_t bins = counts.size();
  if (bins > static_cast<std::size_t>(INT_MAX))
    throw InputError("alias flow: " + std::to_string(bins) + " bins are more than an int can number");
  if (sender.size() != bins || amount.size() != bins)
    throw InputError("alias flow: the sender and amount arrays must have one entry per bin");
  if (bins == 0) return 0;
  if (!order.empty()) check_order(order, bins);
  const Totals totals = totals_of(counts);
  const long long k = totals.target;
  PhantomCut cut = phantom_cut(counts, totals);

  // Partition around k in bin order: deficit bins fill `parts` from the front, surplus bins
  // from the back (so the surplus bins in order are parts[bins-1], parts[bins-2], ...).
  // `amount` holds each bin's count plus its phantom until the pass overwrites it.
  // The loop is branch-free: both ends of `parts` are written and only the claimed one advances.
  const std::unique_ptr<int[]> parts(new int[bins]);
  std::size_t front = 0;
  std::size_t back = bins;
  for (std::size_t p = 0; p < bins; ++p) {
    const int b = order.empty() ? static_cast<int>(p) : order[p];
    const long long c = counts[b];
    const bool tie = c == cut.value;
    const long long held = c + ((c < cut.value) | (tie & (cut.ties > 0)));
    cut.ties -= tie;
    sender[b] = -1;
    amount[b] = held == k ? 0 : held;
    parts[front] = b;
    parts[back - 1] = b;
    front += held < k;
    back -= held > k;
  }

  // The forward pass. The current surplus bin fills the current deficit bin completely; a
  // surplus bin that drops below k becomes the current deficit bin, filled by the next one.
  std::size_t next_deficit = 0;
  int pending = -1;
  long long pending_need = 0;
  for (std::size_t s_at = bins; s_at-- > back;) {
    const int s = parts[s_at];
    long long held = amount[s];
    amount[s] = 0;
    while (held > k) {
      int d;
      long long need;
      if (pending >= 0) {
        d = pending;
        need = pending_need;
        pending = -1;
      } else {
        d = parts[next_deficit++];
        need = k - amount[d];
      }
      sender[d] = s;
      amount[d] = need;
      held -= need;
    }
    if (held < k) {
      pending = s;
      pending_need = k - held;
    }
  }
  return k;
}

AliasFlow alias_flow(std::span<const long long> counts, std::span<const int> order) {
  AliasFlow flow;
  flow.sender.resize(counts.size());
  flow.amount.resize(counts.size());
  flow.target = alias_flow_into(counts, order, flow.sender, flow.amount);
  return flow;
}

AliasFlow alias_flow(std::span<const long long> counts) { return alias_flow(counts, {}); }

}  // namespace rankmap::balance
