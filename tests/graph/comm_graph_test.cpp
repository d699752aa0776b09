// The CSR communication graph: canonical form, bad edges, transposes, and the canonical hash.
#include <rankmap/graph/comm_graph.hpp>

#include "factories.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <span>

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

TEST(CommGraph, ContractedSumsEdgesBetweenGroupsAndKeepsZeroWeights) {
  // Groups {0, 2} and {1, 3}: 0->2 is inside a group, 1->0 and 3->2 both become 1 -> 0.
  const auto g = CommGraph::from_edges(4, {{0, 2, 7}, {1, 0, 2}, {3, 2, 3}, {0, 3, 0}, {2, 2, 5}});
  const std::vector<int> group_of{0, 1, 0, 1};
  const CommGraph q = g.contracted(group_of, 3);
  EXPECT_EQ(q.num_tasks(), 3);
  ASSERT_EQ(q.out_degree(0), 1);  // the zero-weight 0->3, kept as from_edges keeps it
  EXPECT_EQ(q.out_neighbors(0)[0], 1);
  EXPECT_EQ(q.out_weights(0)[0], 0.0);
  ASSERT_EQ(q.out_degree(1), 1);
  EXPECT_EQ(q.out_neighbors(1)[0], 0);
  EXPECT_EQ(q.out_weights(1)[0], 5.0);
  EXPECT_EQ(q.out_degree(2), 0);
  EXPECT_EQ(q.total_weight(), 5.0);
  EXPECT_THROW(g.contracted(std::vector<int>{0, 1, 0}, 2), InputError);
  EXPECT_THROW(g.contracted(std::vector<int>{0, 1, 0, 2}, 2), InputError);
}

TEST(CommGraph, ContractedIsTheGroupEdgeListInCanonicalForm) {
  // Sparse rows are sorted, dense rows scanned: both must give what from_edges makes of the
  // edges between groups.
  for (int groups : {5, 200}) {
    const CommGraph g = testing::random_graph(300, 6, 17);
    std::vector<int> group_of(300);
    for (int t = 0; t < 300; ++t) group_of[t] = (t * 7) % groups;
    std::vector<Edge> between;
    for (const Edge& e : g.edges())
      if (group_of[e.src] != group_of[e.dst]) between.push_back({group_of[e.src], group_of[e.dst], e.weight});
    const std::vector<Edge> expected = CommGraph::from_edges(groups, between).edges();
    const std::vector<Edge> actual = g.contracted(group_of, groups).edges();
    ASSERT_EQ(actual.size(), expected.size()) << groups << " groups";
    for (std::size_t k = 0; k < expected.size(); ++k) {
      EXPECT_EQ(actual[k].src, expected[k].src) << groups << " groups";
      EXPECT_EQ(actual[k].dst, expected[k].dst) << groups << " groups";
      EXPECT_EQ(actual[k].weight, expected[k].weight) << groups << " groups";  // integer weights: exact sums
    }
  }
}

// Node flows are taken row by row, so that a scoring with a deadline can give up on a dense graph.
TEST(CommGraph, ContractedRowsAreThoseOfContractedAndStopWhenTold) {
  const CommGraph g = testing::random_graph(300, 6, 17);
  std::vector<int> group_of(300);
  for (int t = 0; t < 300; ++t) group_of[t] = (t * 7) % 40;
  const CommGraph q = g.contracted(group_of, 40);
  int rows = 0;
  EXPECT_TRUE(g.for_each_contracted_row(group_of, 40, [&](int a, std::span<const int> targets,
                                                          std::span<const double> weights) {
    EXPECT_EQ(a, rows++);
    EXPECT_TRUE(std::ranges::equal(targets, q.out_neighbors(a))) << "row " << a;
    EXPECT_TRUE(std::ranges::equal(weights, q.out_weights(a))) << "row " << a;
    return true;
  }));
  EXPECT_EQ(rows, 40);
  rows = 0;
  EXPECT_FALSE(g.for_each_contracted_row(group_of, 40, [&](int, auto, auto) { return ++rows < 3; }));
  EXPECT_EQ(rows, 3);
  EXPECT_THROW(g.for_each_contracted_row(std::vector<int>{0}, 40, [](int, auto, auto) { return true; }), InputError);
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
