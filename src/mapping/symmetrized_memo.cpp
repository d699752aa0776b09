// One symmetrized copy of a graph per portfolio, shared by its members.
#include "symmetrized_memo.hpp"

namespace rankmap::mapping::detail {

namespace {

/// The innermost SymmetrizedMemo alive on this thread.
thread_local SymmetrizedMemo* active_memo = nullptr;

}  // namespace

SymmetrizedMemo::SymmetrizedMemo(const graph::CommGraph& graph) : graph_(&graph), outer_(active_memo) {
  active_memo = this;
}

SymmetrizedMemo::SymmetrizedMemo(const graph::CommGraph& graph, std::shared_ptr<const graph::CommGraph> symmetrized)
    : SymmetrizedMemo(graph) {
  symmetrized_ = std::move(symmetrized);
}

SymmetrizedMemo::~SymmetrizedMemo() { active_memo = outer_; }

std::shared_ptr<const graph::CommGraph> symmetrized(const graph::CommGraph& graph) {
  SymmetrizedMemo* memo = active_memo;
  while (memo && memo->graph_ != &graph) memo = memo->outer_;
  if (memo && memo->symmetrized_) return memo->symmetrized_;
  auto result = std::make_shared<const graph::CommGraph>(graph.symmetrized());
  if (memo) memo->symmetrized_ = result;
  return result;
}

}  // namespace rankmap::mapping::detail
