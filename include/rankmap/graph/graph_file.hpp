// Reading a communication graph from a file of any supported format.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <string>

namespace rankmap::graph {

/// Picks the format by extension (`.mtx` Matrix Market; `.graph` or `.metis` METIS; `.csv` dense
/// CSV matrix), and otherwise by content (a `%%MatrixMarket` banner). A path that names an Open MPI
/// pml monitoring profile set (`DIR/app.3.prof`, the prefix `DIR/app` of `DIR/app.<rank>.prof`, or
/// a directory holding one set) reads the whole set. Throws InputError naming the path when the
/// format cannot be told or the file does not parse.
CommGraph read_graph_file(const std::string& path);

}  // namespace rankmap::graph
