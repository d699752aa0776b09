// Dense CSV byte matrices as communication graphs: row i, column j holds the bytes task i sent to task j.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <iosfwd>
#include <string_view>

namespace rankmap::graph {

/// Reads a square matrix of comma-separated numbers, one row per sender:
///
///     # optional comments and blank lines
///     0,100,0
///     100,0,2.5e3
///     0,2500,0
///
/// Blanks around a value are ignored; a first line whose first value is not a number (a column
/// header) is skipped. Every row must have as many values as there are rows; values must be
/// finite and >= 0; zeros are not edges, the diagonal is kept. Throws InputError naming `source`
/// and the line for anything else.
CommGraph parse_csv_matrix(std::istream& in, std::string_view source);

}  // namespace rankmap::graph
