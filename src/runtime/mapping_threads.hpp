// How many threads rank 0 maps with (RANKMAP_THREADS).
#pragma once

#include <rankmap/topology/allocation.hpp>

namespace rankmap::runtime {

/// The threads of an automatic setting: the cores rank 0 may run on (`usable_cpus`), but no more than
/// the processes of the communicator on rank 0's node (`processes_on_root_node`), which wait for the
/// mapping without spinning and so leave their cores to it; other processes on that node may be
/// computing. At least 1.
int automatic_threads(int usable_cpus, int processes_on_root_node);

/// The threads rank 0 maps `alloc` with: `configured` (RANKMAP_THREADS) when it is a count, else
/// automatic_threads() of the cores in rank 0's affinity mask and of the slots on slot 0's node.
int mapping_threads(int configured, const topology::Allocation& alloc);

}  // namespace rankmap::runtime
