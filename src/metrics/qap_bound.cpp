// Gilmore-Lawler bound: per task and node, a minimal scalar product; then a capacitated assignment.
#include <rankmap/metrics/linear_assignment.hpp>
#include <rankmap/metrics/qap_bound.hpp>

#include <algorithm>
#include <functional>
#include <string>

namespace rankmap::metrics {

namespace {

/// slots_at[n][h]: how many slots other than one slot of node n lie h hops away from n.
std::vector<std::vector<int>> distance_histograms(const topology::Allocation& alloc) {
  const topology::Network& network = alloc.network();
  const int n = alloc.num_nodes();
  std::vector<std::vector<int>> slots_at(n, std::vector<int>(network.diameter() + 1, 0));
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b)
      slots_at[a][network.hops(alloc.node(a), alloc.node(b))] += static_cast<int>(alloc.slots_of_node(b).size());
    --slots_at[a][0];
  }
  return slots_at;
}

/// The minimal scalar product of flows sorted down and the distances in `slots_at` sorted up.
double least_cost(std::span<const double> flows_down, const std::vector<int>& slots_at) {
  double cost = 0;
  std::size_t r = 0;
  for (std::size_t h = 0; h < slots_at.size() && r < flows_down.size(); ++h)
    for (int k = 0; k < slots_at[h] && r < flows_down.size(); ++k, ++r) cost += flows_down[r] * static_cast<double>(h);
  return cost;
}

}  // namespace

double gilmore_lawler_bound(const graph::CommGraph& graph, const topology::Allocation& alloc) {
  const TaskId tasks = graph.num_tasks();
  const int nodes = alloc.num_nodes();
  if (tasks != alloc.num_slots())
    throw InputError("gilmore_lawler_bound: the graph has " + std::to_string(tasks) + " tasks but the allocation " +
                     std::to_string(alloc.num_slots()) + " slots");
  if (static_cast<double>(tasks) * nodes > kMaxGilmoreLawlerCells)
    throw InputError("gilmore_lawler_bound: " + std::to_string(tasks) + " tasks x " + std::to_string(nodes) +
                     " nodes is too large for a dense assignment");
  const graph::CommGraph sym = graph.symmetrized();
  const auto slots_at = distance_histograms(alloc);
  std::vector<double> cost(static_cast<std::size_t>(tasks) * nodes);
  std::vector<double> flows;
  for (TaskId t = 0; t < tasks; ++t) {
    const auto w = sym.out_weights(t);
    flows.assign(w.begin(), w.end());
    for (double& f : flows) f /= 2;
    std::sort(flows.begin(), flows.end(), std::greater<>());
    for (int n = 0; n < nodes; ++n) cost[static_cast<std::size_t>(t) * nodes + n] = least_cost(flows, slots_at[n]);
  }
  std::vector<int> capacity(nodes);
  for (int n = 0; n < nodes; ++n) capacity[n] = static_cast<int>(alloc.slots_of_node(n).size());
  return solve_assignment(cost, tasks, capacity).cost;
}

}  // namespace rankmap::metrics
