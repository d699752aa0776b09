// The coordinate file of DESIGN.md §8: the grid, and the coordinates of each node by host name.
#pragma once

#include <rankmap/topology/allocation.hpp>
#include <rankmap/topology/grid.hpp>

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::topology {

/// One `node <host> <c0> ... <cn-1> [slots=N]` line.
struct CoordinateEntry {
  std::string host;
  Coords coords{};
  int slots = 0;  ///< processes on this node; 0 when the line does not say
  int line = 0;   ///< 1-based line number in the file it came from (0 when built in memory)
};

/// A whole coordinate file: the grid and the nodes in file order.
struct CoordinateFile {
  Grid grid;
  std::vector<CoordinateEntry> nodes;
};

/// The largest `slots=N` a node line may give.
inline constexpr int kMaxSlotsPerNode = 1 << 16;

/// Parses the text format:
///
///     # comment (also after any line)
///     grid 4x4x2 torus=110
///     node host01 0 0 0
///     node host02 0 0 1 slots=8
///
/// Throws InputError naming `source` and the line for: a missing, repeated or malformed grid
/// line, a node line before the grid line, a wrong number of coordinates, a coordinate out of
/// range, a bad `slots=`, two lines naming the same host, or two hosts at the same coordinates.
CoordinateFile parse_coordinate_file(std::istream& in, std::string_view source);
/// Opens and parses `path`; an unreadable file is an InputError naming it.
CoordinateFile read_coordinate_file(const std::string& path);
/// Writes a file parse_coordinate_file() reads back to the same value (except line numbers).
void write_coordinate_file(std::ostream& out, const CoordinateFile& file);

/// The entry of `host`, or nullptr when the file does not list it.
const CoordinateEntry* find_host(const CoordinateFile& file, std::string_view host);

/// The allocation of the listed nodes in file order, `slots` consecutive slots per node, or
/// `ppn` for a node that does not say. Throws InputError if ppn < 1 is needed, or the file lists no nodes.
Allocation allocation_of(const CoordinateFile& file, int ppn);

}  // namespace rankmap::topology
