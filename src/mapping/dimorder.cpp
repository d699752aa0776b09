// The dimorder mapper: tasks in rank order along a BG/Q-style dimension traversal order.
#include <rankmap/mapping/mapping.hpp>

#include "dimension_order.hpp"
#include "slot_layout.hpp"

namespace rankmap::mapping {

// `dimorder:<order>` sorts the allocation's slots by their coordinates read in the given order
// (letters A.. are grid dimensions 0.., T the slot's position within its node, the rightmost
// letter fastest) and gives task t the t-th slot. On a full grid allocated in the default order,
// dimorder:ABC..T is the identity; on a partial allocation the order walks the same lattice and
// skips what is not allocated. Without a parameter the default order ABC..T is used.
Mapping map_dimorder(const graph::CommGraph&, const topology::Allocation& alloc, const MapOptions& options) {
  topology::require_grid(alloc.network(), "dimorder");
  const int ndims = alloc.grid().ndims();
  const detail::DimensionOrder order = options.parameter.empty()
                                           ? detail::default_dimension_order(ndims)
                                           : detail::parse_dimension_order(options.parameter, ndims, "dimorder");
  return detail::lay_along(detail::slots_in_dimension_order(alloc, order));
}

}  // namespace rankmap::mapping
