// Concentration onto nodes and socket-aware order within nodes, both by greedy graph growing.
#include "intra_node.hpp"

#include "group_growing.hpp"

#include <algorithm>
#include <map>

namespace rankmap::runtime {

double off_node_bytes(const graph::CommGraph& graph, const topology::Allocation& alloc,
                      std::span<const SlotId> slot_of) {
  double bytes = 0;
  for (TaskId t = 0; t < graph.num_tasks(); ++t) {
    const int node = alloc.node_index_of_slot(slot_of[t]);
    const auto neighbors = graph.out_neighbors(t);
    const auto weights = graph.out_weights(t);
    for (std::size_t k = 0; k < neighbors.size(); ++k)
      if (alloc.node_index_of_slot(slot_of[neighbors[k]]) != node) bytes += weights[k];
  }
  return bytes;
}

mapping::Mapping concentrate_on_nodes(const graph::CommGraph& graph, const topology::Allocation& alloc) {
  const graph::CommGraph sym = graph.symmetrized();
  std::vector<TaskId> tasks(static_cast<std::size_t>(graph.num_tasks()));
  for (TaskId t = 0; t < graph.num_tasks(); ++t) tasks[t] = t;
  std::vector<int> capacities(static_cast<std::size_t>(alloc.num_nodes()));
  std::vector<TaskId> seeds(capacities.size());
  for (int i = 0; i < alloc.num_nodes(); ++i) {
    capacities[i] = static_cast<int>(alloc.slots_of_node(i).size());
    seeds[i] = alloc.slots_of_node(i)[0];  // identity: task s runs on slot s
  }
  GroupGrower grower(sym);
  const std::vector<int> group = grower.grow(tasks, capacities, seeds);
  mapping::Mapping slot_of(tasks.size());
  std::vector<std::size_t> filled(capacities.size(), 0);
  for (TaskId t = 0; t < graph.num_tasks(); ++t) slot_of[t] = alloc.slots_of_node(group[t])[filled[group[t]]++];
  return slot_of;
}

void order_within_sockets(const graph::CommGraph& graph, const topology::Allocation& alloc,
                          std::span<const int> socket_of_slot, mapping::Mapping& slot_of) {
  const std::vector<TaskId> task_of = mapping::inverse(slot_of);
  const graph::CommGraph sym = graph.symmetrized();
  GroupGrower grower(sym);
  for (int n = 0; n < alloc.num_nodes(); ++n) {
    const auto slots = alloc.slots_of_node(n);
    std::map<int, std::vector<SlotId>> slots_of_socket;
    for (SlotId s : slots) slots_of_socket[socket_of_slot[s]].push_back(s);
    if (slots_of_socket.size() < 2 || slots_of_socket.begin()->first < 0) continue;
    std::vector<TaskId> tasks;
    for (SlotId s : slots) tasks.push_back(task_of[s]);
    std::sort(tasks.begin(), tasks.end());
    std::vector<int> capacities;
    std::vector<TaskId> seeds;
    std::vector<const std::vector<SlotId>*> socket_slots;
    for (const auto& [socket, list] : slots_of_socket) {
      capacities.push_back(static_cast<int>(list.size()));
      seeds.push_back(task_of[list.front()]);
      socket_slots.push_back(&list);
    }
    const std::vector<int> group = grower.grow(tasks, capacities, seeds);
    std::vector<std::size_t> filled(capacities.size(), 0);
    for (std::size_t i = 0; i < tasks.size(); ++i) slot_of[tasks[i]] = (*socket_slots[group[i]])[filled[group[i]]++];
  }
}

}  // namespace rankmap::runtime
