// The CSR communication graph: canonical form, bad edges, transposes, and the canonical hash.
#include <rankmap/graph/comm_graph.hpp>

#include "factories.hpp"

#include <gtest/gtest.h>

namespace rankmap::graph {
namespace {

TEST(CommGraph, MergesDuplicatesAndSortsOutEdges) {
  const auto g = CommGraph::from_edges(3, {{0, 2, 1.5}, {0, 1, 1}, {0, 2, 2.5}, {2, 2, 4}});
  EXPECT_EQ(g.num_edges(), 3);
  ASSERT_EQ(g.out_degree(0), 2);
  EXPECT_EQ(g.out_neighbors(0)[0], 1);
  EXPECT_EQ(g.out_neighbors(0)[1], 2);
  EXPECT_DOUBLE_EQ(g.out_weights(0)[1], 4.0);
  EXPECT_EQ(g.out_degree(1), 0);
  EXPECT_DOUBLE_EQ(g.total_weight(), 9.0);
}

TEST(CommGraph, RejectsBadEdges) {
  EXPECT_THROW(CommGraph::from_edges(2, {{0, 2, 1}}), InputError);
  EXPECT_THROW(CommGraph::from_edges(2, {{-1, 0, 1}}), InputError);
  EXPECT_THROW(CommGraph::from_edges(2, {{0, 1, -1}}), InputError);
  EXPECT_THROW(CommGraph::from_edges(2, {{0, 1, std::numeric_limits<double>::infinity()}}), InputError);
}

TEST(CommGraph, TransposeAndSymmetrize) {
  const auto g = CommGraph::from_edges(3, {{0, 1, 2}, {1, 0, 3}, {1, 2, 1}, {2, 2, 9}});
  const auto t = g.transposed();
  EXPECT_EQ(t.out_neighbors(2).size(), 2u);  // 1->2 and the self loop
  const auto s = g.symmetrized();
  EXPECT_EQ(s.num_edges(), 4);
  EXPECT_DOUBLE_EQ(s.out_weights(0)[0], 5.0);
  EXPECT_DOUBLE_EQ(s.out_weights(2)[0], 1.0);
}

TEST(CommGraph, SymmetrizedIsTheDoubledEdgeListInCanonicalForm) {
  // One-sided and two-sided pairs, self-loops, zero and fractional weights on 40 tasks: the merge
  // must give exactly (bit for bit) what from_edges makes of every edge and its reverse.
  std::vector<Edge> edges;
  std::uint32_t x = 12345;
  const auto next = [&] { return x = x * 1103515245u + 12345u, (x >> 8) % 40; };
  for (int i = 0; i < 300; ++i) {
    const TaskId a = static_cast<TaskId>(next()), b = static_cast<TaskId>(next());
    edges.push_back({a, b, next() % 7 == 0 ? 0.0 : 0.1 * next() + 1e-3 * i});
  }
  const CommGraph g = CommGraph::from_edges(40, edges);
  std::vector<Edge> doubled;
  for (const Edge& e : g.edges())
    if (e.src != e.dst) doubled.insert(doubled.end(), {e, {e.dst, e.src, e.weight}});
  const CommGraph expected = CommGraph::from_edges(40, doubled);
  const CommGraph actual = g.symmetrized();
  ASSERT_EQ(actual.num_edges(), expected.num_edges());
  const std::vector<Edge> a = actual.edges(), e = expected.edges();
  for (std::size_t k = 0; k < e.size(); ++k) {
    EXPECT_EQ(a[k].src, e[k].src);
    EXPECT_EQ(a[k].dst, e[k].dst);
    EXPECT_EQ(a[k].weight, e[k].weight) << a[k].src << " -> " << a[k].dst;
  }
  EXPECT_EQ(actual.total_weight(), expected.total_weight());
  EXPECT_EQ(actual.canonical_hash(), expected.canonical_hash());
}

TEST(CommGraph, CanonicalHashIgnoresInputOrderButNotContent) {
  const auto a = CommGraph::from_edges(4, {{0, 1, 1}, {2, 3, 0.1}, {2, 3, 0.2}, {3, 0, 5}});
  const auto b = CommGraph::from_edges(4, {{3, 0, 5}, {2, 3, 0.2}, {0, 1, 1}, {2, 3, 0.1}});
  EXPECT_EQ(a.canonical_hash(), b.canonical_hash());
  EXPECT_NE(a.canonical_hash(), CommGraph::from_edges(4, {{0, 1, 1}, {2, 3, 0.3}, {3, 0, 6}}).canonical_hash());
  EXPECT_NE(a.canonical_hash(), CommGraph::from_edges(5, a.edges()).canonical_hash());
}

}  // namespace
}  // namespace rankmap::graph
