// The tasks that may load a phase's hottest channel, on a fat-tree or dragonfly.
#include "swap_state.hpp"

#include <algorithm>

namespace rankmap::mapping::detail {

// Every minimal route through channel c has an end among the nodes of Network::channel_home(c), so
// the tasks on those nodes are checked first, each edge by routing it; if no route of theirs crosses
// c (a Valiant detour through a third group can), every task is checked.
void SwapState::find_hot_tasks_off_grid(Phase& phase) {
  const ChannelId c = phase.hot_channel;
  const topology::Network& network = alloc_.network();
  const auto crosses = [&](int from, int to) {
    shares_.clear();
    routing_->route(alloc_.node(from), alloc_.node(to), shares_);
    return std::any_of(shares_.begin(), shares_.end(), [&](const topology::ChannelShare& s) { return s.channel == c; });
  };
  const auto check = [&](TaskId t) {
    const auto flow = [&](TaskId src, TaskId dst) {
      const int from = node_[src], to = node_[dst];
      if (from == to || !crosses(from, to)) return;
      for (TaskId y : {src, dst})
        if (!is_hot_[y]) is_hot_[y] = 1, phase.hot.push_back(y);
    };
    for (TaskId x : phase.graph->out_neighbors(t)) flow(t, x);
    for (std::int64_t k = phase.in->offsets[t]; k < phase.in->offsets[t + 1]; ++k) flow(phase.in->sources[k], t);
  };
  const auto check_node = [&](int i) {
    for (SlotId s : alloc_.slots_of_node(i)) check(task_of_slot_[s]);
  };
  const auto [first, level] = network.channel_home(c);
  const NodeId size = network.level_size(level);
  if (size <= alloc_.num_nodes()) {
    for (NodeId id = first; id < first + size; ++id)
      if (const int i = lookup_(id); i >= 0) check_node(i);
  } else {
    for (int i = 0; i < alloc_.num_nodes(); ++i)
      if (alloc_.node(i) / size == first / size) check_node(i);
  }
  if (phase.hot.empty())
    for (TaskId t = 0; t < graph_.num_tasks(); ++t) check(t);
  for (TaskId t : phase.hot) is_hot_[t] = 0;
}

}  // namespace rankmap::mapping::detail
