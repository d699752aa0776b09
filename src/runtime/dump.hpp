// RANKMAP_DUMP: the graph, allocation and mapping of a reorder, written by rank 0 for offline mapping.
#pragma once

#include "decide.hpp"
#include "placement.hpp"

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/topology/allocation_file.hpp>

#include <span>
#include <string>

namespace rankmap::runtime {

/// The allocation as an allocation file (a coordinate file on a grid, a network allocation file on
/// a fat-tree or dragonfly): one line per node in order of first appearance, with its slot count.
/// This reproduces the live slot order exactly when each node's slots are consecutive ranks, as
/// launchers place them by default. `hosts` names the nodes; without it they are node<i>.
topology::AllocationFile allocation_file_of(const topology::Allocation& alloc, std::span<const std::string> hosts = {});

/// Writes `<dir>/reorder-<NNN>.mtx` (the graph, Matrix Market), `.coords` (the allocation file of
/// allocation_file_of, one `node<i>` line per node with its slot count) and `.map` (the mapping used,
/// identity when not applied), NNN counting the reorders of this process from 1. Returns the
/// common path without extension. Throws InputError naming the file that could not be written.
std::string dump_reorder(const std::string& dir, const graph::CommGraph& graph, const Placement& placement,
                         const Decision& decision);

}  // namespace rankmap::runtime
