// The alias-method flow: which bin sends how many identical tasks to which, so that all bins end balanced.
#pragma once

#include <span>
#include <vector>

namespace rankmap::balance {

/// The migration plan for P bins: bin `i` receives `amount[i]` tasks from bin `sender[i]`,
/// or nothing when `sender[i] == -1` (then `amount[i] == 0`).
///
/// Guarantees (docs/balance.md has the proofs), with T the total and k = ceil(T/P):
/// - every bin receives from at most one bin, and never from itself;
/// - no bin sends more tasks than it holds before the migration, so one round suffices;
/// - afterwards every bin holds k or k-1 tasks (exactly kP-T bins hold k-1), so at most k;
/// - the largest amount any bin receives is the least possible for such a balanced outcome;
///   when P divides T it is the largest initial deficit max(k - counts[i]);
/// - at most P-1 bins receive anything.
struct AliasFlow {
  std::vector<int> sender;
  std::vector<long long> amount;
  long long target = 0;  ///< k = ceil(T/P), the most any bin holds afterwards
};

/// The plan for bins taken in index order. Throws InputError if a count is negative or the
/// total does not fit in a long long. O(P) time and memory.
AliasFlow alias_flow(std::span<const long long> counts);

/// The plan for bins taken in the order `order` (a permutation of 0..P-1, for instance the
/// bins sorted along a space-filling curve of their nodes), so that partners tend to be
/// close in that order. An empty `order` means index order. Throws InputError if `order` is
/// not a permutation of the bins.
AliasFlow alias_flow(std::span<const long long> counts, std::span<const int> order);

/// The same, written into caller-owned arrays of counts.size() entries (the C API's form).
/// Returns k = ceil(T/P).
long long alias_flow_into(std::span<const long long> counts, std::span<const int> order, std::span<int> sender,
                          std::span<long long> amount);

}  // namespace rankmap::balance
