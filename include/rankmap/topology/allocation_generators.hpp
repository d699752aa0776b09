// Generators of allocations: fragmented ones as a busy batch scheduler hands out, and regular boxes.
#pragma once

#include <rankmap/topology/grid.hpp>
#include <rankmap/topology/network.hpp>
#include <rankmap/types.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace rankmap::topology {

/// The `count` nodes a busy Cray XT-style scheduler would give a job on `grid`, in the order
/// the scheduler hands them out (which is the order ranks are placed on them).
///
/// The scheduler walks its node list, a serpentine traversal of the grid (the last dimension
/// fastest, every other line reversed, so consecutive nodes are neighbours), and gives a job
/// the first free nodes on it. Before our job arrives a seeded stream of other jobs has come
/// and gone, leaving the machine 50-80 % busy with holes of all sizes. The result, like on the
/// real machines, is several disconnected pieces: lines long in the fastest dimension, and
/// planes where a hole spans several lines. Reproducible: the same seed gives the same nodes.
/// Time and memory grow with the number of jobs simulated, not with the machine.
/// Throws InputError if count is not 1..grid.num_nodes().
std::vector<NodeId> fragmented_nodes(const Grid& grid, int count, std::uint64_t seed);
/// The same on any network: on a fat-tree or dragonfly the scheduler's node list is the node order
/// (SimGrid's host order: switch by switch, group by group), so the job gets runs of consecutive
/// nodes scattered over the machine.
std::vector<NodeId> fragmented_nodes(const Network& network, int count, std::uint64_t seed);

/// The nodes of a box of `box_extents` whose lowest corner is `origin` (all zeros if empty),
/// in row-major order of the box (dimension 0 slowest). The box wraps around torus dimensions;
/// throws InputError if it leaves a mesh dimension or does not fit the grid.
std::vector<NodeId> regular_nodes(const Grid& grid, std::span<const int> box_extents, std::span<const int> origin);

}  // namespace rankmap::topology
