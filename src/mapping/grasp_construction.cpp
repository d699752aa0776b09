// GRASP construction: randomised greedy placement of tasks, each on a cheap free node.
#include "grasp.hpp"

#include <algorithm>
#include <numeric>
#include <queue>

namespace rankmap::mapping::grasp {

namespace {

/// The nodes with room left, removable in O(1).
class FreeNodes {
 public:
  explicit FreeNodes(const QapProblem& problem) : room_(problem.num_nodes()), position_(problem.num_nodes(), -1) {
    for (int m = 0; m < problem.num_nodes(); ++m) {
      room_[m] = problem.capacity(m);
      if (room_[m] > 0) position_[m] = static_cast<int>(list_.size()), list_.push_back(m);
    }
  }
  const std::vector<int>& nodes() const { return list_; }
  int room(int node) const { return room_[node]; }
  void take(int node) {
    if (--room_[node] > 0) return;
    const int last = list_.back();
    list_[position_[node]] = last;
    position_[last] = position_[node];
    list_.pop_back();
  }

 private:
  std::vector<int> room_;
  std::vector<int> position_;
  std::vector<int> list_;
};

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

struct Candidate {
  double cost;
  std::uint64_t tie;
  int node;
  bool operator<(const Candidate& o) const { return cost != o.cost ? cost < o.cost : tie < o.tie; }
};

/// One of the kRclSize free nodes where `task` adds the least hop-bytes to its placed neighbours.
int choose_node(const QapProblem& problem, TaskId task, const std::vector<int>& node_of, const FreeNodes& free,
                std::mt19937_64& rng) {
  std::vector<std::pair<int, double>> placed;
  const auto targets = problem.flows().out_neighbors(task);
  const auto weights = problem.flows().out_weights(task);
  for (std::size_t k = 0; k < targets.size(); ++k)
    if (node_of[targets[k]] >= 0) placed.emplace_back(node_of[targets[k]], weights[k]);
  const std::uint64_t salt = rng();
  std::vector<Candidate> rcl;
  for (int m : free.nodes()) {
    double cost = 0;
    for (const auto& [node, w] : placed) cost += w * problem.hops(m, node);
    const Candidate c{cost, mix(salt ^ static_cast<std::uint64_t>(m)), m};
    if (static_cast<int>(rcl.size()) == kRclSize && !(c < rcl.back())) continue;
    rcl.insert(std::upper_bound(rcl.begin(), rcl.end(), c), c);
    if (static_cast<int>(rcl.size()) > kRclSize) rcl.pop_back();
  }
  return rcl[std::uniform_int_distribution<std::size_t>(0, rcl.size() - 1)(rng)].node;
}

/// A random edge among the heaviest: weight within a quarter of the weight range from the top.
std::pair<TaskId, TaskId> seed_edge(const graph::CommGraph& flows, std::mt19937_64& rng) {
  double lo = 0, hi = 0;
  bool any = false;
  for (TaskId t = 0; t < flows.num_tasks(); ++t)
    for (double w : flows.out_weights(t)) {
      lo = any ? std::min(lo, w) : w;
      hi = any ? std::max(hi, w) : w;
      any = true;
    }
  if (!any) return {std::uniform_int_distribution<TaskId>(0, flows.num_tasks() - 1)(rng), -1};
  const double threshold = hi - 0.25 * (hi - lo);
  std::vector<std::pair<TaskId, TaskId>> heavy;
  for (TaskId t = 0; t < flows.num_tasks(); ++t) {
    const auto targets = flows.out_neighbors(t);
    const auto weights = flows.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k)
      if (t < targets[k] && weights[k] >= threshold) heavy.emplace_back(t, targets[k]);
  }
  return heavy[std::uniform_int_distribution<std::size_t>(0, heavy.size() - 1)(rng)];
}

/// Tasks not yet placed, in id order, into the lowest nodes with room.
void fill_in_node_order(std::vector<int>& node_of, FreeNodes& free) {
  int node = 0;
  for (int& placed_on : node_of) {
    if (placed_on >= 0) continue;
    while (free.room(node) == 0) ++node;
    placed_on = node;
    free.take(node);
  }
}

/// How many placements go between two looks at the clock.
constexpr TaskId kClockEvery = 64;

}  // namespace

std::vector<int> construct(const QapProblem& problem, std::mt19937_64& rng, const Deadline* deadline) {
  const TaskId n = problem.num_tasks();
  const graph::CommGraph& flows = problem.flows();
  std::vector<int> node_of(n, -1);
  std::vector<double> attached(n, 0);
  FreeNodes free(problem);
  // Max-heap of (bytes to placed tasks, random tie-break, task); stale entries are skipped.
  std::priority_queue<std::tuple<double, std::uint64_t, TaskId>> frontier;
  const auto place = [&](TaskId t, int node) {
    node_of[t] = node;
    free.take(node);
    const auto targets = flows.out_neighbors(t);
    const auto weights = flows.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k)
      if (node_of[targets[k]] < 0) {
        attached[targets[k]] += weights[k];
        frontier.emplace(attached[targets[k]], rng(), targets[k]);
      }
  };
  const auto [first, second] = seed_edge(flows, rng);
  place(first, free.nodes()[std::uniform_int_distribution<std::size_t>(0, free.nodes().size() - 1)(rng)]);
  if (second >= 0) place(second, choose_node(problem, second, node_of, free, rng));
  // Tasks no placed task talks to (other components) are taken in a random order.
  std::vector<TaskId> leftovers(n);
  std::iota(leftovers.begin(), leftovers.end(), 0);
  std::shuffle(leftovers.begin(), leftovers.end(), rng);
  std::size_t next_leftover = 0;
  for (TaskId placed = second >= 0 ? 2 : 1; placed < n; ++placed) {
    if (deadline && placed % kClockEvery == 0 && deadline->passed()) {
      fill_in_node_order(node_of, free);
      return node_of;
    }
    TaskId t = -1;
    while (!frontier.empty() && t < 0) {
      const auto [bytes, tie, task] = frontier.top();
      frontier.pop();
      if (node_of[task] < 0 && bytes == attached[task]) t = task;
    }
    while (t < 0) {
      const TaskId candidate = leftovers[next_leftover++];
      if (node_of[candidate] < 0) t = candidate;
    }
    place(t, choose_node(problem, t, node_of, free, rng));
  }
  return node_of;
}

}  // namespace rankmap::mapping::grasp
