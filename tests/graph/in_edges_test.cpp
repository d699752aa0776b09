// InEdges: the counting-sort transpose holds the same edges as CommGraph::transposed().
#include "graph/in_edges.hpp"

#include <rankmap/graph/patterns.hpp>

#include <gtest/gtest.h>

namespace rankmap::graph {
namespace {

TEST(InEdges, ListsEachTasksSourcesInOrder) {
  // 0 -> 2 (1), 1 -> 2 (2), 2 -> 0 (3), 2 -> 2 (4): task 2 hears from 0, 1 and itself, task 0 from 2.
  const auto g = CommGraph::from_edges(3, {{1, 2, 2}, {0, 2, 1}, {2, 0, 3}, {2, 2, 4}});
  const InEdges in(g);
  EXPECT_EQ(in.offsets, (std::vector<std::int64_t>{0, 1, 1, 4}));
  EXPECT_EQ(in.sources, (std::vector<TaskId>{2, 0, 1, 2}));
  EXPECT_EQ(in.weights, (std::vector<double>{3, 1, 2, 4}));
}

TEST(InEdges, MatchesTheTransposedGraph) {
  const CommGraph g = make_pattern({.name = "random", .dims = {}, .ranks = 200, .bytes = 1, .seed = 3});
  const CommGraph t = g.transposed();
  const InEdges in(g);
  for (TaskId x = 0; x < g.num_tasks(); ++x) {
    const auto begin = static_cast<std::size_t>(in.offsets[x]), end = static_cast<std::size_t>(in.offsets[x + 1]);
    ASSERT_EQ(end - begin, t.out_neighbors(x).size()) << "task " << x;
    for (std::size_t k = begin; k < end; ++k) {
      EXPECT_EQ(in.sources[k], t.out_neighbors(x)[k - begin]);
      EXPECT_EQ(in.weights[k], t.out_weights(x)[k - begin]);
    }
  }
}

}  // namespace
}  // namespace rankmap::graph
