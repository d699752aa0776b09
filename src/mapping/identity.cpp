// The identity mapping: task t runs where the launcher put rank t.
#include <rankmap/mapping/mapping.hpp>

namespace rankmap::mapping {

Mapping map_identity(const graph::CommGraph& graph, const topology::Allocation&, const MapOptions&) {
  return identity_mapping(graph.num_tasks());
}

}  // namespace rankmap::mapping
