// Greedy graph growing with a lazy max-heap of each group's affinities.
#include "group_growing.hpp"

#include <queue>
#include <stdexcept>
#include <utility>

namespace rankmap::runtime {

GroupGrower::GroupGrower(const graph::CommGraph& graph)
    : graph_(graph), group_of_(static_cast<std::size_t>(graph.num_tasks()), -2),
      affinity_(static_cast<std::size_t>(graph.num_tasks()), 0.0) {}

std::vector<int> GroupGrower::grow(std::span<const TaskId> tasks, std::span<const int> capacities,
                                   std::span<const TaskId> seeds) {
  std::size_t total = 0;
  for (int c : capacities) total += static_cast<std::size_t>(c);
  if (total != tasks.size()) throw std::logic_error("GroupGrower: capacities do not sum to the task count");
  for (TaskId t : tasks) group_of_[t] = -1;

  // (affinity, -task): the largest affinity first, then the lowest task id.
  using Entry = std::pair<double, TaskId>;
  std::priority_queue<Entry> heap;
  std::vector<TaskId> touched;
  std::size_t cursor = 0;
  for (std::size_t g = 0; g < capacities.size(); ++g) {
    auto add = [&](TaskId t) {
      group_of_[t] = static_cast<int>(g);
      const auto neighbors = graph_.out_neighbors(t);
      const auto weights = graph_.out_weights(t);
      for (std::size_t k = 0; k < neighbors.size(); ++k) {
        const TaskId u = neighbors[k];
        if (group_of_[u] != -1) continue;
        if (affinity_[u] == 0) touched.push_back(u);
        affinity_[u] += weights[k];
        heap.emplace(affinity_[u], -u);
      }
    };
    auto next_free = [&] {
      while (group_of_[tasks[cursor]] != -1) ++cursor;
      return tasks[cursor];
    };
    for (int filled = 0; filled < capacities[g]; ++filled) {
      TaskId next = -1;
      if (filled == 0) {
        next = g < seeds.size() && seeds[g] >= 0 && group_of_[seeds[g]] == -1 ? seeds[g] : next_free();
      } else {
        while (!heap.empty() && next < 0) {
          const auto [a, neg] = heap.top();
          heap.pop();
          if (group_of_[-neg] == -1 && a == affinity_[-neg]) next = -neg;
        }
        if (next < 0) next = next_free();
      }
      add(next);
    }
    heap = {};
    for (TaskId u : touched) affinity_[u] = 0;
    touched.clear();
  }
  std::vector<int> result(tasks.size());
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    result[i] = group_of_[tasks[i]];
    group_of_[tasks[i]] = -2;
  }
  return result;
}

}  // namespace rankmap::runtime
