// Recognising communication graphs whose tasks form a row-major grid (stencil codes), and their shape.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <optional>
#include <vector>

namespace rankmap::graph {

/// The shape (extents, dimension 0 slowest) of a row-major task grid that explains every edge.
///
/// A shape fits when every edge joins tasks whose coordinates differ by at most one in every
/// dimension, where a step across the boundary of a dimension of extent > 2 also counts as one
/// (periodic stencils). Among the ordered factorisations of the task count into 1..max_dims
/// factors of at least 2, the first fit wins in this order: fewest dimensions, then the smallest
/// largest extent, then lexicographically. A graph without edges is a path (`{num_tasks}`).
/// Returns nullopt when no shape fits, that is when the graph has no grid structure.
std::optional<std::vector<int>> detect_grid_shape(const CommGraph& graph, int max_dims = 4);

}  // namespace rankmap::graph
