// GRASP local search: pairwise swaps of tasks between nodes, best improvement per task.
#include "grasp.hpp"

#include <algorithm>
#include <numeric>

namespace rankmap::mapping::grasp {

namespace {

/// Which tasks sit on which node, kept up to date under swaps.
class Occupancy {
 public:
  Occupancy(const std::vector<int>& node_of, int num_nodes) : tasks_on_(num_nodes), position_(node_of.size()) {
    for (std::size_t t = 0; t < node_of.size(); ++t) {
      position_[t] = static_cast<int>(tasks_on_[node_of[t]].size());
      tasks_on_[node_of[t]].push_back(static_cast<TaskId>(t));
    }
  }
  const std::vector<TaskId>& on(int node) const { return tasks_on_[node]; }
  void swap(TaskId a, int node_a, TaskId b, int node_b) {
    tasks_on_[node_a][position_[a]] = b;
    tasks_on_[node_b][position_[b]] = a;
    std::swap(position_[a], position_[b]);
  }

 private:
  std::vector<std::vector<TaskId>> tasks_on_;
  std::vector<int> position_;
};

/// Hop-bytes change when `task` alone moves from node `from` to node `to`.
double move_gain(const QapProblem& problem, const std::vector<int>& node_of, TaskId task, int from, int to) {
  const auto targets = problem.flows().out_neighbors(task);
  const auto weights = problem.flows().out_weights(task);
  double delta = 0;
  for (std::size_t k = 0; k < targets.size(); ++k) {
    const int other = node_of[targets[k]];
    delta += weights[k] * (problem.hops(to, other) - problem.hops(from, other));
  }
  return delta;
}

/// Nodes whose tasks may swap with `task`: every other node, or those near its neighbours' nodes.
void partner_nodes(const QapProblem& problem, const std::vector<int>& node_of, TaskId task, std::vector<int>& mark,
                   int stamp, std::vector<int>& out) {
  out.clear();
  const int home = node_of[task];
  const auto add = [&](int node) {
    if (node >= 0 && node != home && mark[node] != stamp) mark[node] = stamp, out.push_back(node);
  };
  if (problem.num_tasks() <= kFullNeighbourhood) {
    for (int m = 0; m < problem.num_nodes(); ++m) add(m);
    return;
  }
  const NodeGeometry& geo = problem.geometry();
  for (TaskId u : problem.flows().out_neighbors(task)) {
    const int node = node_of[u];
    add(node);
    for (int d = 0; d < geo.ndims(); ++d)
      for (const auto dir : {topology::Direction::plus, topology::Direction::minus}) add(geo.neighbor(node, d, dir));
  }
}

}  // namespace

long local_search(const QapProblem& problem, std::vector<int>& node_of, const Deadline* deadline,
                  std::mt19937_64& rng) {
  const TaskId n = problem.num_tasks();
  Occupancy occupancy(node_of, problem.num_nodes());
  // Swaps gaining less than this are rounding noise, not progress.
  const double epsilon =
      1e-12 * problem.flows().total_weight() * std::max(1, problem.geometry().grid().diameter());
  std::vector<TaskId> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<int> mark(problem.num_nodes(), -1), partners;
  std::vector<char> active(n, 1);
  const auto wake = [&](TaskId t) {
    active[t] = 1;
    for (TaskId u : problem.flows().out_neighbors(t)) active[u] = 1;
  };
  long swaps = 0;
  int stamp = 0;
  for (bool improved = true; improved;) {
    improved = false;
    std::shuffle(order.begin(), order.end(), rng);
    for (TaskId a : order) {
      if (!active[a]) continue;
      if (deadline && deadline->passed()) return swaps;
      active[a] = 0;
      const int home = node_of[a];
      partner_nodes(problem, node_of, a, mark, ++stamp, partners);
      double best = -epsilon;
      TaskId best_partner = -1;
      for (int m : partners) {
        const double gain_a = move_gain(problem, node_of, a, home, m);
        for (TaskId b : occupancy.on(m)) {
          const double delta = gain_a + move_gain(problem, node_of, b, m, home) + 2 * problem.flow(a, b) * problem.hops(home, m);
          if (delta < best) best = delta, best_partner = b;
        }
      }
      if (best_partner < 0) continue;
      const int there = node_of[best_partner];
      occupancy.swap(a, home, best_partner, there);
      node_of[a] = there;
      node_of[best_partner] = home;
      wake(a);
      wake(best_partner);
      ++swaps;
      improved = true;
    }
  }
  return swaps;
}

}  // namespace rankmap::mapping::grasp
