// GRASP on the quadratic assignment form of hop-bytes: the problem and its two phases, shared with tests.
#pragma once

#include "node_geometry.hpp"

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/mapping/mapping.hpp>

#include <random>
#include <vector>

namespace rankmap::mapping::grasp {

/// Tasks to place on capacitated nodes at least hop-bytes. Solutions are `node_of[task]` (dense node
/// indices); only the node matters for hop-bytes, slots within a node are handed out at the end.
class QapProblem {
 public:
  QapProblem(const graph::CommGraph& graph, const topology::Allocation& alloc);

  const graph::CommGraph& flows() const { return sym_; }  ///< w + w^T, both directions, no self loops
  const NodeGeometry& geometry() const { return geo_; }
  TaskId num_tasks() const { return sym_.num_tasks(); }
  int num_nodes() const { return geo_.num_nodes(); }
  int capacity(int node) const { return capacity_[node]; }
  int hops(int a, int b) const {
    return table_.empty() ? geo_.hops(a, b) : table_[static_cast<std::size_t>(a) * geo_.num_nodes() + b];
  }
  /// w + w^T between two tasks (0 when they do not talk).
  double flow(TaskId a, TaskId b) const;
  /// Hop-bytes of a solution, equal to metrics::hop_bytes of the mapping it becomes.
  double cost(const std::vector<int>& node_of) const;

  std::vector<int> nodes_of(const Mapping& slot_of) const;
  Mapping to_mapping(const std::vector<int>& node_of) const;

 private:
  const topology::Allocation& alloc_;
  graph::CommGraph sym_;
  NodeGeometry geo_;
  std::vector<int> capacity_;
  std::vector<std::uint16_t> table_;  ///< all node-to-node hop counts, when there are at most kTableNodes nodes
};

/// Up to this many nodes (8 MB of 16-bit entries) hop counts are looked up rather than computed.
inline constexpr int kTableNodes = 2048;

/// Greedy randomised construction: a heavy edge from a restricted candidate list seeds the
/// placement; then the unplaced task most attached to placed ones goes, in turn, to one of the
/// kRclSize free nodes where it adds the least hop-bytes, chosen at random. Once `deadline` (if
/// given) has passed, the tasks left take the free room in the launcher's order (by task id, the
/// lowest node with room first).
inline constexpr int kRclSize = 2;
std::vector<int> construct(const QapProblem& problem, std::mt19937_64& rng, const Deadline* deadline = nullptr);

/// 2-swap local search, best improvement per task, until no swap helps or the deadline passes
/// (nullptr: no deadline). Swap partners of a task are all tasks when there are at most
/// kFullNeighbourhood of them, else those on the nodes of its graph neighbours and on the
/// allocated grid neighbours of those nodes. A task that found no improving swap is looked at
/// again only once it, or one of its graph neighbours, has moved ("don't look" bits).
/// Returns the number of swaps made.
inline constexpr TaskId kFullNeighbourhood = 1024;
long local_search(const QapProblem& problem, std::vector<int>& node_of, const Deadline* deadline, std::mt19937_64& rng);

}  // namespace rankmap::mapping::grasp
