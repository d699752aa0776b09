// Allocations: the slot-to-node table and its dense per-node index.
#include <rankmap/hash.hpp>
#include <rankmap/topology/allocation.hpp>

#include <algorithm>
#include <unordered_map>

namespace rankmap::topology {

Allocation::Allocation(Network network, std::vector<NodeId> node_of_slot)
    : network_(std::move(network)), node_of_slot_(std::move(node_of_slot)) {
  if (node_of_slot_.empty()) throw InputError("allocation: no slots");
  if (node_of_slot_.size() > static_cast<std::size_t>(INT32_MAX)) throw InputError("allocation: more than 2^31 slots");
  std::unordered_map<NodeId, int> index_of;
  index_of.reserve(node_of_slot_.size());
  node_index_of_slot_.resize(node_of_slot_.size());
  std::vector<int> count;
  for (std::size_t s = 0; s < node_of_slot_.size(); ++s) {
    const NodeId n = node_of_slot_[s];
    if (n < 0 || n >= network_.num_nodes())
      throw InputError("allocation: slot " + std::to_string(s) + " is on node " + std::to_string(n) + ", outside the " +
                       (network_.is_grid() ? "grid " : "network ") + network_.to_string());
    auto [it, inserted] = index_of.try_emplace(n, static_cast<int>(nodes_.size()));
    if (inserted) {
      nodes_.push_back(n);
      count.push_back(0);
    }
    node_index_of_slot_[s] = it->second;
    ++count[it->second];
  }
  node_slot_begin_.assign(nodes_.size() + 1, 0);
  for (std::size_t i = 0; i < nodes_.size(); ++i) node_slot_begin_[i + 1] = node_slot_begin_[i] + count[i];
  max_ppn_ = *std::max_element(count.begin(), count.end());
  slots_by_node_.resize(node_of_slot_.size());
  std::vector<SlotId> fill(node_slot_begin_.begin(), node_slot_begin_.end() - 1);
  for (SlotId s = 0; s < num_slots(); ++s) slots_by_node_[fill[node_index_of_slot_[s]]++] = s;
}

Allocation Allocation::full(const Network& network, int ppn) {
  std::vector<NodeId> nodes(static_cast<std::size_t>(network.num_nodes()));
  for (NodeId n = 0; n < network.num_nodes(); ++n) nodes[n] = n;
  return of_nodes(network, nodes, ppn);
}

Allocation Allocation::of_nodes(const Network& network, std::span<const NodeId> nodes, int ppn) {
  if (ppn < 1) throw InputError("allocation: ppn must be at least 1, not " + std::to_string(ppn));
  if (static_cast<double>(nodes.size()) * ppn > INT32_MAX) throw InputError("allocation: more than 2^31 slots");
  std::vector<NodeId> node_of_slot;
  node_of_slot.reserve(nodes.size() * ppn);
  for (NodeId n : nodes)
    for (int i = 0; i < ppn; ++i) node_of_slot.push_back(n);
  return Allocation(network, std::move(node_of_slot));
}

Allocation Allocation::first_slots(SlotId n) const {
  if (n < 1 || n > num_slots())
    throw InputError("allocation: cannot take " + std::to_string(n) + " of its " + std::to_string(num_slots()) +
                     " slots");
  return Allocation(network_, std::vector<NodeId>(node_of_slot_.begin(), node_of_slot_.begin() + n));
}

std::uint64_t Allocation::hash() const {
  StableHash h;
  if (!network_.is_grid()) {
    // A leading 0, which no grid (1 to 8 dimensions) begins with, keeps these apart from grid hashes.
    h.u64(0);
    for (char c : network_.to_string()) h.u64(static_cast<unsigned char>(c));
    h.u64(static_cast<std::uint64_t>(num_slots()));
    for (NodeId n : node_of_slot_) h.u64(static_cast<std::uint64_t>(n));
    return h.digest();
  }
  const Grid& grid = network_.grid();
  h.u64(static_cast<std::uint64_t>(grid.ndims()));
  for (int d = 0; d < grid.ndims(); ++d) {
    h.u64(static_cast<std::uint64_t>(grid.extent(d)));
    h.u64(grid.is_torus(d) ? 1 : 0);
  }
  h.u64(static_cast<std::uint64_t>(num_slots()));
  for (NodeId n : node_of_slot_) {
    const Coords c = grid.coords_of(n);
    for (int d = 0; d < grid.ndims(); ++d) h.u64(static_cast<std::uint64_t>(c[d]));
  }
  return h.digest();
}

}  // namespace rankmap::topology
