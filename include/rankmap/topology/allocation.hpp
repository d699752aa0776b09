// The slots a job holds: which node of the network each slot (old rank) runs on.
#pragma once

#include <rankmap/topology/grid.hpp>
#include <rankmap/topology/network.hpp>
#include <rankmap/types.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace rankmap::topology {

/// An allocation: slot `s` runs on node `node_of_slot(s)` of a network (a grid, a fat-tree, ...).
///
/// Any subset of the network is allowed: holes, several disconnected pieces, nodes with
/// different slot counts. Allocated nodes also get a dense index 0..num_nodes()-1, in order
/// of first appearance among the slots, which is what mappers and metrics iterate over.
class Allocation {
 public:
  Allocation() = default;
  /// Throws InputError if a node lies outside the network or there are no slots.
  Allocation(Network network, std::vector<NodeId> node_of_slot);
  Allocation(Grid grid, std::vector<NodeId> node_of_slot) : Allocation(Network(std::move(grid)), std::move(node_of_slot)) {}

  /// Every node of the network in node order (row-major on a grid), `ppn` consecutive slots per
  /// node (DESIGN.md §8).
  static Allocation full(const Network& network, int ppn);
  /// The given nodes in the given order, `ppn` consecutive slots per node.
  static Allocation of_nodes(const Network& network, std::span<const NodeId> nodes, int ppn);

  const Network& network() const noexcept { return network_; }
  /// The grid of an allocation on a torus or mesh; throws InputError naming the network otherwise.
  const Grid& grid() const { return network_.grid(); }
  SlotId num_slots() const noexcept { return static_cast<SlotId>(node_of_slot_.size()); }
  NodeId node_of_slot(SlotId s) const { return node_of_slot_[s]; }
  const std::vector<NodeId>& nodes_of_slots() const noexcept { return node_of_slot_; }

  /// Number of distinct allocated nodes.
  int num_nodes() const noexcept { return static_cast<int>(nodes_.size()); }
  /// The grid node of dense node index `i`.
  NodeId node(int i) const { return nodes_[i]; }
  const std::vector<NodeId>& nodes() const noexcept { return nodes_; }
  /// Dense node index of slot `s`.
  int node_index_of_slot(SlotId s) const { return node_index_of_slot_[s]; }
  /// The slots of dense node `i`, ascending.
  std::span<const SlotId> slots_of_node(int i) const {
    return {slots_by_node_.data() + node_slot_begin_[i],
            static_cast<std::size_t>(node_slot_begin_[i + 1] - node_slot_begin_[i])};
  }
  /// Largest number of slots on one node.
  int max_ppn() const noexcept { return max_ppn_; }

  /// The first `n` slots only (a job smaller than the allocation fills it from the start).
  Allocation first_slots(SlotId n) const;
  /// A stable 64-bit hash of the ordered node coordinates of the slots (mapping files, §8); on
  /// other networks, of the network's spec and the ordered node ids of the slots.
  std::uint64_t hash() const;

 private:
  Network network_;
  std::vector<NodeId> node_of_slot_;
  std::vector<NodeId> nodes_;
  std::vector<int> node_index_of_slot_;
  std::vector<SlotId> slots_by_node_;
  std::vector<SlotId> node_slot_begin_;
  int max_ppn_ = 0;
};

}  // namespace rankmap::topology
