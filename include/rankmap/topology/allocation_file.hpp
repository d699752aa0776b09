// Allocation files of any network: a coordinate file (DESIGN.md §8) on a torus or mesh, a network
// allocation file (`network SPEC`, then `node HOST INDEX`) on a fat-tree or dragonfly.
#pragma once

#include <rankmap/topology/allocation.hpp>
#include <rankmap/topology/network.hpp>

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::topology {

/// One allocated node of an allocation file.
struct NodeEntry {
  std::string host;
  NodeId node = 0;  ///< the network's node id (on a grid, of the line's coordinates)
  int slots = 0;    ///< processes on this node; 0 when the line does not say
  int line = 0;     ///< 1-based line number in the file it came from (0 when built in memory)
};

/// A whole allocation file: the network and the allocated nodes in file (slot) order.
struct AllocationFile {
  Network network;
  std::vector<NodeEntry> nodes;
};

/// Parses a network allocation file (docs/formats.md):
///
///     # comment (also after any line)
///     network fattree:2;4,4;1,2;1,2
///     node host03 3
///     node host07 7 slots=8
///
/// INDEX is the node's number in SimGrid's numbering of the network, which is rankmap's. Throws
/// InputError naming `source` and the line for: a missing, repeated or malformed network line, a
/// spec that is not a fat-tree or dragonfly (a torus or mesh is a coordinate file), a node line
/// before the network line, a wrong number of words, an index outside the network, a bad `slots=`,
/// two lines naming the same host or the same index, or an unknown keyword.
AllocationFile parse_network_allocation_file(std::istream& in, std::string_view source);

/// Either kind of file, told apart by its first keyword: `grid` (a coordinate file, read by
/// parse_coordinate_file) or `network`. Throws InputError naming `source` as the readers do.
AllocationFile parse_allocation_file(std::istream& in, std::string_view source);
/// Opens and parses `path`; an unreadable file is an InputError naming it.
AllocationFile read_allocation_file(const std::string& path);

/// Writes a file parse_allocation_file() reads back to the same value (except line numbers): a
/// coordinate file on a grid, a network allocation file otherwise.
void write_allocation_file(std::ostream& out, const AllocationFile& file);

/// The allocation of the listed nodes in file order, `slots` consecutive slots per node, or `ppn`
/// for a node that does not say. Throws InputError if ppn < 1 is needed, or the file lists no nodes.
Allocation allocation_of(const AllocationFile& file, int ppn);

}  // namespace rankmap::topology
