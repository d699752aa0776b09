// The alias method against the QMC greedy baseline on branching-process loads, and the hop-bytes of its migrations on a 3D torus; prints markdown.
#include "branching_process.hpp"
#include "transfers.hpp"

#include <rankmap/balance/alias_flow.hpp>
#include <rankmap/balance/network_order.hpp>
#include <rankmap/topology/allocation.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

namespace {

using rankmap::balance::AliasFlow;
using rankmap::balance::alias_flow;
using rankmap::bench::Transfer;
using rankmap::bench::TransferStats;

constexpr int kWalkersPerProcess = 100;
constexpr double kTau = 0.05;

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

// Median CPU time of `reps` runs of f, in milliseconds: CPU time, because the machine the
// tables are made on is shared, and wall time there measures the neighbours.
template <class F>
double median_ms(int reps, F&& f) {
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    const double start = thread_cpu_ms();
    f();
    times.push_back(thread_cpu_ms() - start);
  }
  std::nth_element(times.begin(), times.begin() + reps / 2, times.end());
  return times[reps / 2];
}

void print_row(int p, int generations, const char* scheme, const TransferStats& s, double ms) {
  std::printf("| %d | %d | %s | %lld | %lld | %lld | %lld | %.3f |\n", p, generations, scheme,
              s.max_messages_received, s.max_tasks_received, s.total_moved, s.total_messages, ms);
}

void compare_with_greedy() {
  std::printf("### Alias method vs greedy sorted pairing\n\n");
  std::printf(
      "Load vectors: %d walkers per process, then `generations` steps of DMC branching (tau = %.2f) without "
      "balancing. Both schemes end with every process at floor or ceil of T/P. Flow time is the median CPU time "
      "of the plan computation alone.\n\n",
      kWalkersPerProcess, kTau);
  std::printf("| P | generations | scheme | max messages received | max tasks received | total tasks moved | "
              "total messages | flow time (ms) |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const int p : {1000, 12000, 120000}) {
    for (const int generations : {1, 10}) {
      const std::vector<long long> counts =
          rankmap::bench::branching_counts(p, kWalkersPerProcess, generations, kTau, 1000 + p + generations);
      const int reps = p >= 100000 ? 15 : 31;
      AliasFlow flow;
      const double alias_ms = median_ms(reps, [&] { flow = alias_flow(counts); });
      std::vector<Transfer> greedy;
      const double greedy_ms = median_ms(reps, [&] { greedy = rankmap::bench::greedy_sorted_transfers(counts); });
      print_row(p, generations, "alias", rankmap::bench::stats_of(counts, rankmap::bench::transfers_of(flow)),
                alias_ms);
      print_row(p, generations, "greedy sorted", rankmap::bench::stats_of(counts, greedy), greedy_ms);
    }
  }
  std::printf("\n");
}

double transfer_task_hops(const std::vector<Transfer>& transfers, const rankmap::topology::Allocation& alloc) {
  double hops = 0;
  for (const Transfer& t : transfers)
    hops += static_cast<double>(t.n) * alloc.grid().hops(alloc.node_of_slot(t.from), alloc.node_of_slot(t.to));
  return hops;
}

void print_hop_row(const char* torus, int p, const char* order, double task_hops, long long moved) {
  std::printf("| %s | %d | %s | %.0f | %.2f |\n", torus, p, order, task_hops, task_hops / static_cast<double>(moved));
}

void compare_orders() {
  std::printf("### Migration hop-bytes on an emulated 3D torus\n\n");
  std::printf(
      "One process per node, ranks in the emulation's row-major node order; one generation of branching from %d "
      "walkers per process. The alias flow takes the bins in rank order or in the Hilbert order of their nodes "
      "(`alias_flow_hilbert`); the greedy baseline is shown for reference. Task-hops = the sum over messages of "
      "tasks times hops (hop-bytes per byte of task).\n\n",
      kWalkersPerProcess);
  std::printf("| torus | P | bin order | task-hops | hops per moved task |\n");
  std::printf("|---|---|---|---|---|\n");
  for (const char* torus : {"torus:10x10x10", "torus:20x20x30", "torus:40x50x60"}) {
    const auto alloc = rankmap::topology::Allocation::full(rankmap::topology::Grid::parse(torus), 1);
    const int p = alloc.num_slots();
    const std::vector<long long> counts = rankmap::bench::branching_counts(p, kWalkersPerProcess, 1, kTau, 7 + p);
    const AliasFlow plain = alias_flow(counts);
    const long long moved = rankmap::bench::stats_of(counts, rankmap::bench::transfers_of(plain)).total_moved;
    print_hop_row(torus, p, "alias, rank order", rankmap::balance::migration_hop_bytes(plain, alloc, 1), moved);
    const AliasFlow hilbert = rankmap::balance::alias_flow_hilbert(counts, alloc);
    const long long hilbert_moved =
        rankmap::bench::stats_of(counts, rankmap::bench::transfers_of(hilbert)).total_moved;
    print_hop_row(torus, p, "alias, Hilbert order", rankmap::balance::migration_hop_bytes(hilbert, alloc, 1),
                  hilbert_moved);
    const std::vector<Transfer> greedy = rankmap::bench::greedy_sorted_transfers(counts);
    const long long greedy_moved = rankmap::bench::stats_of(counts, greedy).total_moved;
    print_hop_row(torus, p, "greedy sorted", transfer_task_hops(greedy, alloc), greedy_moved);
  }
  std::printf("\n");
}

}  // namespace

int main() {
  compare_with_greedy();
  compare_orders();
  return 0;
}
