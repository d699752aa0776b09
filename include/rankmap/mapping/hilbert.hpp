// The n-D Hilbert order of an allocation's nodes, shared by the hilbert and rcm mappers,
// the load-balancing helper and rankmap_comm_hilbert.
#pragma once

#include <rankmap/topology/allocation.hpp>
#include <rankmap/types.hpp>

#include <vector>

namespace rankmap::mapping {

/// The allocation's dense node indices sorted by their position on an n-D Hilbert curve.
///
/// The allocation's bounding box (dimensions in which all its nodes share one coordinate are
/// dropped) is embedded in the smallest box of side 2^b that holds it, each node gets its
/// index on that box's Hilbert curve (Skilling's transpose algorithm, "Programming the Hilbert
/// curve", 2004), and nodes are sorted by index. On a full box of side 2^b consecutive nodes are
/// grid neighbours; on other sides and on holes or disconnected pieces the curve simply skips
/// the missing points, so nodes close on the curve stay close on the grid. Works for every
/// grid the core accepts (up to 8 dimensions). O(N log N) for N nodes.
std::vector<int> hilbert_node_order(const topology::Allocation& alloc);

/// Every slot of the allocation: nodes in hilbert_node_order(), the slots of a node
/// consecutive and ascending.
std::vector<SlotId> hilbert_slot_order(const topology::Allocation& alloc);

}  // namespace rankmap::mapping
