// What the swap searches (refine, anneal) start from, and how they pick the swaps they try.
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include "network_geometry.hpp"
#include "swap_state.hpp"

#include <optional>
#include <random>
#include <string>
#include <string_view>

namespace rankmap::mapping::detail {

/// options.initial (the previous chain stage), or the identity if none. Throws InputError, naming
/// `algorithm`, if it is not a permutation of the graph's tasks.
inline Mapping starting_mapping(const graph::CommGraph& graph, const MapOptions& options, std::string_view algorithm) {
  if (!options.initial) return identity_mapping(graph.num_tasks());
  const Mapping& m = *options.initial;
  if (static_cast<TaskId>(m.size()) != graph.num_tasks() || !is_permutation(m))
    throw InputError(std::string(algorithm) + ": the initial mapping is not a permutation of the graph's " +
                     std::to_string(graph.num_tasks()) + " tasks");
  return m;
}

/// Picks swap candidates: the first task mostly among those loading the hottest channel (under
/// MCL), the partner on or next to the node of one of the first task's neighbours (off grids: on a
/// node of its NearNodes group), one time in eight anywhere (on fragmented allocations 1/8 beat
/// 1/2 and 0 for the same number of attempts).
class SwapPicker {
 public:
  SwapPicker(SwapState& state, const topology::Allocation& alloc, std::uint64_t seed)
      : state_(state), alloc_(alloc), rng_(seed) {
    if (!alloc.network().is_grid()) near_.emplace(alloc);
  }

  /// Off grids, the nodes near each node; nullptr on a grid.
  const NearNodes* near_nodes() const noexcept { return near_ ? &*near_ : nullptr; }

  /// -1 when the objective is already 0. `hot`: mostly among the tasks loading the hottest channel.
  TaskId first(bool hot) {
    if (state_.objective() <= 0) return -1;
    if (!hot) return random_task();
    const std::vector<TaskId>& tasks = state_.hot_tasks();
    if (!tasks.empty() && rng_() % 8 != 0) return tasks[rng_() % tasks.size()];
    return random_task();
  }

  TaskId partner(TaskId a) {
    if (rng_() % 8 == 0) return random_task();
    const TaskId near = state_.some_neighbour(a, [&](std::size_t degree) { return rng_() % degree; });
    if (near < 0) return random_task();
    int node = state_.node_of(near);
    if (rng_() % 2 == 0) {
      if (near_) {
        const auto around = near_->of(node);
        node = around[rng_() % around.size()];
      } else {
        const topology::Grid& grid = alloc_.grid();
        const NodeId next = grid.neighbor(alloc_.node(node), static_cast<int>(rng_() % grid.ndims()),
                                          rng_() % 2 ? topology::Direction::plus : topology::Direction::minus);
        const int i = next >= 0 ? state_.node_lookup()(next) : -1;
        if (i >= 0) node = i;
      }
    }
    const auto slots = alloc_.slots_of_node(node);
    return state_.task_at(slots[rng_() % slots.size()]);
  }

 private:
  TaskId random_task() { return state_.task_at(static_cast<SlotId>(rng_() % alloc_.num_slots())); }

  SwapState& state_;
  const topology::Allocation& alloc_;
  std::mt19937_64 rng_;
  std::optional<NearNodes> near_;
};

}  // namespace rankmap::mapping::detail
