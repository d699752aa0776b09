// Mapping-independent lower bounds on the maximum channel load.
#include <rankmap/metrics/lower_bound.hpp>

#include <algorithm>
#include <functional>

namespace rankmap::metrics {

namespace {

// Bytes of `t`'s edges in `g` that cannot stay on t's node: all but its `keep` heaviest
// edges to other tasks. Self loops never leave the node.
double forced_bytes_of(const graph::CommGraph& g, TaskId t, int keep, std::vector<double>& scratch) {
  scratch.clear();
  const auto targets = g.out_neighbors(t);
  const auto weights = g.out_weights(t);
  double total = 0;
  for (std::size_t k = 0; k < targets.size(); ++k) {
    if (targets[k] == t) continue;
    total += weights[k];
    scratch.push_back(weights[k]);
  }
  const std::size_t kept = std::min<std::size_t>(static_cast<std::size_t>(keep), scratch.size());
  std::partial_sort(scratch.begin(), scratch.begin() + kept, scratch.end(), std::greater<>());
  for (std::size_t k = 0; k < kept; ++k) total -= scratch[k];
  return std::max(0.0, total);
}

struct ForcedBytes {
  double total = 0;     // summed over tasks
  double one_task = 0;  // the largest single task's share
};

ForcedBytes forced_bytes(const graph::CommGraph& g, int keep) {
  ForcedBytes f;
  std::vector<double> scratch;
  for (TaskId t = 0; t < g.num_tasks(); ++t) {
    const double b = forced_bytes_of(g, t, keep, scratch);
    f.total += b;
    f.one_task = std::max(f.one_task, b);
  }
  return f;
}

}  // namespace

double mcl_lower_bound(const graph::CommGraph& graph, const topology::Allocation& alloc) {
  const topology::Network& network = alloc.network();
  const double total_capacity = network.total_capacity();
  const double node_capacity = network.max_node_capacity();
  if (total_capacity <= 0 || node_capacity <= 0) return 0;
  const int keep = alloc.max_ppn() - 1;
  const ForcedBytes out = forced_bytes(graph, keep);
  const ForcedBytes in = forced_bytes(graph.transposed(), keep);
  // Every byte that leaves its node crosses at least min_hops() channels (1 on a grid; 2, up to a
  // switch and down again, on a fat-tree or dragonfly).
  const double spread = std::max(out.total, in.total) * network.min_hops() / total_capacity;
  const double squeeze = std::max(out.one_task, in.one_task) / node_capacity;
  return std::max(spread, squeeze);
}

}  // namespace rankmap::metrics
