// Speed of the alias flow on a million bins, against one pass summing the counts (the floor of any O(P) method).
#include "branching_process.hpp"
#include "transfers.hpp"

#include <rankmap/balance/alias_flow.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

namespace {

const std::vector<long long>& million_bins() {
  static const std::vector<long long> counts =
      rankmap::bench::branching_counts(1'000'000, 20, 1, 0.05, 20240611);
  return counts;
}

void BM_SumCounts(benchmark::State& state) {
  const auto& counts = million_bins();
  for (auto _ : state) {
    long long total = std::accumulate(counts.begin(), counts.end(), 0LL);
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<long long>(counts.size()));
}
BENCHMARK(BM_SumCounts)->Unit(benchmark::kMillisecond);

void BM_AliasFlow(benchmark::State& state) {
  const auto& counts = million_bins();
  std::vector<int> sender(counts.size());
  std::vector<long long> amount(counts.size());
  for (auto _ : state) {
    benchmark::DoNotOptimize(rankmap::balance::alias_flow_into(counts, {}, sender, amount));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<long long>(counts.size()));
}
BENCHMARK(BM_AliasFlow)->Unit(benchmark::kMillisecond);

// Bins in a random order: the same work, but every access jumps in memory.
void BM_AliasFlowShuffledOrder(benchmark::State& state) {
  const auto& counts = million_bins();
  std::vector<int> order(counts.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(1));
  std::vector<int> sender(counts.size());
  std::vector<long long> amount(counts.size());
  for (auto _ : state) {
    benchmark::DoNotOptimize(rankmap::balance::alias_flow_into(counts, order, sender, amount));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<long long>(counts.size()));
}
BENCHMARK(BM_AliasFlowShuffledOrder)->Unit(benchmark::kMillisecond);

void BM_GreedySorted(benchmark::State& state) {
  const auto& counts = million_bins();
  for (auto _ : state) benchmark::DoNotOptimize(rankmap::bench::greedy_sorted_transfers(counts));
  state.SetItemsProcessed(state.iterations() * static_cast<long long>(counts.size()));
}
BENCHMARK(BM_GreedySorted)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
