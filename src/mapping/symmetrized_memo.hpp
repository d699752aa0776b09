// The symmetrized graph, built once for all the mappers that a portfolio runs on one graph.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <memory>

namespace rankmap::mapping::detail {

/// While it lives, symmetrized() on this thread builds the symmetrized copy of `graph` (the same
/// object) once and hands every later call that copy. auto's members (bisect, split, and emahd's
/// concentration or placement) each symmetrized the graph they were given: on alltoall on
/// torus:8x8x8 with 2 per node (1M edges) that was a fifth of bisect's time, most of it page
/// faults, before any member could look at the clock.
class SymmetrizedMemo {
 public:
  explicit SymmetrizedMemo(const graph::CommGraph& graph);
  /// A memo that already holds `symmetrized`, built on another thread (memos are per thread: auto
  /// hands the copy it built to the threads that build its members).
  SymmetrizedMemo(const graph::CommGraph& graph, std::shared_ptr<const graph::CommGraph> symmetrized);
  ~SymmetrizedMemo();
  SymmetrizedMemo(const SymmetrizedMemo&) = delete;
  SymmetrizedMemo& operator=(const SymmetrizedMemo&) = delete;

 private:
  friend std::shared_ptr<const graph::CommGraph> symmetrized(const graph::CommGraph& graph);
  const graph::CommGraph* graph_;
  SymmetrizedMemo* outer_;
  std::shared_ptr<const graph::CommGraph> symmetrized_;
};

/// graph.symmetrized(), taken from the innermost memo of `graph` alive on this thread when there is
/// one (and kept there for later calls).
std::shared_ptr<const graph::CommGraph> symmetrized(const graph::CommGraph& graph);

}  // namespace rankmap::mapping::detail
