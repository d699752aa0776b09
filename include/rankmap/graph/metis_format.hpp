// METIS graph files as communication graphs: every undirected edge becomes both directions.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <iosfwd>
#include <string>
#include <string_view>

namespace rankmap::graph {

/// Reads the METIS format: a header `n m [fmt [ncon]]`, then one line per vertex listing its
/// neighbours (1-based), each followed by the edge weight when fmt has the edge-weight flag
/// (fmt = abc: a vertex sizes, b vertex weights, c edge weights). Vertex sizes and weights are
/// skipped; `%` starts a comment line. Each listed neighbour v of u becomes an edge u -> v, so
/// a consistent file yields both directions of every undirected edge, each with its weight.
/// The adjacency must be symmetric, with equal weights both ways, and count 2m entries.
/// Throws InputError naming `source` and the line for anything malformed.
CommGraph parse_metis(std::istream& in, std::string_view source);
CommGraph read_metis(const std::string& path);

}  // namespace rankmap::graph
