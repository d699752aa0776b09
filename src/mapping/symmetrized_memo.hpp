// The symmetrized graph, built once for all the mappers that a portfolio runs on one graph.
#pragma once

#include "graph_memo.hpp"

#include <rankmap/graph/comm_graph.hpp>

#include <memory>

namespace rankmap::mapping::detail {

/// While it lives, symmetrized() on this thread builds the symmetrized copy of `graph` once. auto's
/// members (bisect, split, and emahd's concentration or placement) each symmetrized the graph they
/// were given: on alltoall on torus:8x8x8 with 2 per node (1M edges) 18% of bisect's and emahd's
/// samples (`perf`), a third of them page faults, before any member could look at the clock.
using SymmetrizedMemo = GraphMemo<std::shared_ptr<const graph::CommGraph>>;

/// graph.symmetrized(), taken from the innermost SymmetrizedMemo of `graph` alive on this thread
/// when there is one (and kept there for later calls).
inline std::shared_ptr<const graph::CommGraph> symmetrized(const graph::CommGraph& graph) {
  return SymmetrizedMemo::find_or(graph, [&] { return std::make_shared<const graph::CommGraph>(graph.symmetrized()); });
}

}  // namespace rankmap::mapping::detail
