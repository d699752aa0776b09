// grasp: greedy randomised adaptive search on the hop-bytes quadratic assignment (Li, Pardalos, Resende).
#include "grasp.hpp"
#include "greedy_embedding.hpp"
#include "parallel_for.hpp"
#include "slot_layout.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <limits>

namespace rankmap::mapping {

namespace grasp {

QapProblem::QapProblem(const graph::CommGraph& graph, const topology::Allocation& alloc)
    : alloc_(alloc), sym_(graph.symmetrized()), geo_(alloc), capacity_(detail::node_slot_counts(alloc)) {
  const int n = alloc.num_nodes();
  if (n > kTableNodes || alloc.grid().diameter() > UINT16_MAX) return;
  table_.resize(static_cast<std::size_t>(n) * n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) table_[static_cast<std::size_t>(a) * n + b] = static_cast<std::uint16_t>(geo_.hops(a, b));
}

double QapProblem::flow(TaskId a, TaskId b) const {
  const auto targets = sym_.out_neighbors(a);
  const auto it = std::lower_bound(targets.begin(), targets.end(), b);
  return it != targets.end() && *it == b ? sym_.out_weights(a)[it - targets.begin()] : 0.0;
}

double QapProblem::cost(const std::vector<int>& node_of) const {
  double total = 0;
  for (TaskId t = 0; t < num_tasks(); ++t) {
    const auto targets = sym_.out_neighbors(t);
    const auto weights = sym_.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k)
      if (t < targets[k]) total += weights[k] * hops(node_of[t], node_of[targets[k]]);
  }
  return total;
}

std::vector<int> QapProblem::nodes_of(const Mapping& slot_of) const {
  std::vector<int> node_of(slot_of.size());
  for (std::size_t t = 0; t < slot_of.size(); ++t) node_of[t] = alloc_.node_index_of_slot(slot_of[t]);
  return node_of;
}

Mapping QapProblem::to_mapping(const std::vector<int>& node_of) const { return detail::slots_from_nodes(alloc_, node_of); }

}  // namespace grasp

namespace {

/// `grasp:<n>` runs exactly n iterations whatever the budget, which makes the result reproducible.
long parse_iterations(const std::string& parameter) {
  if (parameter.empty()) return 0;
  long n = 0;
  const auto [end, error] = std::from_chars(parameter.data(), parameter.data() + parameter.size(), n);
  if (error != std::errc() || end != parameter.data() + parameter.size() || n < 1)
    throw InputError("grasp: parameter '" + parameter + "' is not a positive iteration count");
  return n;
}

std::uint64_t iteration_seed(std::uint64_t seed, long iteration) {
  std::uint64_t x = seed ^ (static_cast<std::uint64_t>(iteration) * 0x9E3779B97F4A7C15ull);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

struct Best {
  double cost = std::numeric_limits<double>::infinity();
  long iteration = -1;
  std::vector<int> node_of;

  void offer(double c, long it, std::vector<int>& nodes) {
    if (c < cost || (c == cost && it < iteration)) cost = c, iteration = it, node_of = std::move(nodes);
  }
};

}  // namespace

Mapping map_grasp(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  const long iterations = parse_iterations(options.parameter);
  topology::require_grid(alloc.network(), "grasp");
  const grasp::QapProblem problem(graph, alloc);
  const Deadline deadline(options.time_budget_ms);
  const Deadline* limit = iterations ? nullptr : &deadline;
  const int threads = std::max(1, options.threads);
  // Iterations are numbered and seeded by number, so a fixed count gives the same answer on any
  // number of threads. Iteration 0 improves the previous chain stage's mapping when there is one.
  std::atomic<long> next{0};
  std::vector<Best> best(threads);
  const auto worker = [&](int w) {
    for (;;) {
      const long it = next.fetch_add(1);
      if (iterations ? it >= iterations : it > 0 && deadline.passed()) break;
      std::mt19937_64 rng(iteration_seed(options.seed, it));
      std::vector<int> nodes =
          it == 0 && options.initial ? problem.nodes_of(*options.initial) : grasp::construct(problem, rng, limit);
      grasp::local_search(problem, nodes, limit, rng);
      best[w].offer(problem.cost(nodes), it, nodes);
      if (w == 0 && options.progress)
        options.progress(iterations ? std::min(1.0, double(it + 1) / iterations)
                                    : std::clamp(1 - deadline.remaining_ms() / std::max(options.time_budget_ms, 1e-9), 0.0, 1.0));
    }
  };
  // One item per worker, each drawing iterations until none is left: parallel_for starts the threads,
  // hands their exceptions back and runs the loop of a thread the system refuses to start.
  detail::parallel_for(static_cast<std::size_t>(threads), threads, [&](std::size_t, int w) { worker(w); });
  Best overall;
  for (Best& b : best)
    if (b.iteration >= 0) overall.offer(b.cost, b.iteration, b.node_of);
  return problem.to_mapping(overall.node_of);
}

}  // namespace rankmap::mapping
