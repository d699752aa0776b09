// Which socket (hwloc package) the calling process is bound to, for socket-aware placement within a node.
#pragma once

#include <hwloc.h>

namespace rankmap::coords {

/// The logical index of the one package that contains every PU of `cpuset`, or -1 when the
/// set is empty or spans several packages (an unbound process spans them all).
int package_of_cpuset(hwloc_topology_t topology, hwloc_const_cpuset_t cpuset);

/// The package the calling process is bound to, or -1 when it is not bound inside one package.
/// An unbound process is recognised from its affinity mask without loading a topology, which keeps
/// MPI_Init cheap in the common case.
int socket_of_this_process();

}  // namespace rankmap::coords
