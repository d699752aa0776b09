// Matrix Market coordinate files as communication graphs: entry (i, j, w) is w bytes from task i to task j.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <iosfwd>
#include <string>
#include <string_view>

namespace rankmap::graph {

/// Reads `%%MatrixMarket matrix coordinate <real|integer|pattern> <general|symmetric>`.
///
/// Indices are 1-based; a pattern entry weighs 1; a symmetric file's off-diagonal entries are
/// mirrored. The matrix must be square (one row and one column per task). Throws InputError
/// naming `source` and the line for anything malformed.
CommGraph parse_matrix_market(std::istream& in, std::string_view source);
CommGraph read_matrix_market(const std::string& path);

/// Writes `coordinate real general`, one line per edge, with weights that read back exactly,
/// so the canonical hash survives a round trip.
void write_matrix_market(std::ostream& out, const CommGraph& graph);
void write_matrix_market(const std::string& path, const CommGraph& graph);

}  // namespace rankmap::graph
