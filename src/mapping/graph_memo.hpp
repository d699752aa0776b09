// What a portfolio's members would each compute from the same graph, computed once.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <optional>
#include <utility>

namespace rankmap::mapping::detail {

/// While it lives, find_or() on this thread computes the Value of `graph` (the same object) once
/// and answers later calls from memory. Memos are per thread and nest: the innermost memo of the
/// graph answers. auto keeps one for each thing its members each derived from the graph it was
/// given (TaskGridMemo, SymmetrizedMemo), and hands what the caller's thread computed to the
/// threads that build its members.
template <typename Value>
class GraphMemo {
 public:
  explicit GraphMemo(const graph::CommGraph& graph) : graph_(&graph), outer_(innermost()) { innermost() = this; }
  /// A memo that already holds `value`, computed on another thread.
  GraphMemo(const graph::CommGraph& graph, Value value) : GraphMemo(graph) { value_ = std::move(value); }
  ~GraphMemo() { innermost() = outer_; }
  GraphMemo(const GraphMemo&) = delete;
  GraphMemo& operator=(const GraphMemo&) = delete;

  /// The innermost memo's value for `graph`; without one, compute(), kept in that memo if there is one.
  template <typename Compute>
  static Value find_or(const graph::CommGraph& graph, Compute&& compute) {
    GraphMemo* memo = innermost();
    while (memo && memo->graph_ != &graph) memo = memo->outer_;
    if (memo && memo->value_) return *memo->value_;
    Value value = compute();
    if (memo) memo->value_ = value;
    return value;
  }

 private:
  static GraphMemo*& innermost() {
    thread_local GraphMemo* memo = nullptr;
    return memo;
  }

  const graph::CommGraph* graph_;
  GraphMemo* outer_;
  std::optional<Value> value_;
};

}  // namespace rankmap::mapping::detail
