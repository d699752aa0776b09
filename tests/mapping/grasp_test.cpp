// Tests of grasp: its phases, its cost model, reproducibility, and optimal answers on easy instances.
#include "factories.hpp"
#include "grasp.hpp"

#include <rankmap/metrics/hop_bytes.hpp>

#include <gtest/gtest.h>

namespace rankmap::mapping {

Mapping map_grasp(const graph::CommGraph&, const topology::Allocation&, const MapOptions&);

namespace {

using topology::Allocation;
using topology::Grid;

MapOptions iterations(const char* count, int threads = 1) {
  MapOptions options;
  options.parameter = count;
  options.threads = threads;
  return options;
}

TEST(Grasp, LocalSearchNeverWorsensTheConstruction) {
  const Grid grid = Grid::parse("torus:4x4x4");
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto graph = testing::random_graph(128, 4, seed);
    const Allocation alloc = Allocation::full(grid, 2);
    const grasp::QapProblem problem(graph, alloc);
    std::mt19937_64 rng(seed);
    std::vector<int> nodes = grasp::construct(problem, rng);
    const double constructed = problem.cost(nodes);
    grasp::local_search(problem, nodes, nullptr, rng);
    EXPECT_LE(problem.cost(nodes), constructed) << "seed " << seed;
  }
}

TEST(Grasp, ConstructionFillsEveryNodeToItsCapacity) {
  // Nodes of 3, 3 and 1 slots (7 slots of a ppn-3 allocation).
  const Allocation alloc = Allocation::of_nodes(Grid::parse("mesh:5"), std::vector<NodeId>{4, 0, 2}, 3).first_slots(7);
  const grasp::QapProblem problem(testing::random_graph(7, 3, 9), alloc);
  std::mt19937_64 rng(1);
  const std::vector<int> nodes = grasp::construct(problem, rng);
  std::vector<int> load(3, 0);
  for (int n : nodes) ++load[n];
  EXPECT_EQ(load, (std::vector<int>{3, 3, 1}));
}

TEST(Grasp, CostIsHopBytesOfTheMapping) {
  const auto graph = testing::random_graph(60, 5, 4);
  const Allocation alloc = Allocation::full(Grid::parse("torus:3x5x4"), 1);
  const grasp::QapProblem problem(graph, alloc);
  const Mapping m = testing::random_permutation(60, 8);
  EXPECT_DOUBLE_EQ(problem.cost(problem.nodes_of(m)), metrics::hop_bytes(graph, alloc, m));
  EXPECT_EQ(problem.to_mapping(problem.nodes_of(m)), m);  // ppn 1: one slot per node
}

TEST(Grasp, FindsTheOptimalRingEmbedding) {
  // A ring of 12 tasks on a ring of 12 nodes: every edge can be one hop, 12 edges x 2 directions = 24.
  std::vector<graph::Edge> edges;
  for (TaskId t = 0; t < 12; ++t) testing::add_pair(edges, t, (t + 5) % 12, 1);  // a ring in scrambled order
  const auto graph = graph::CommGraph::from_edges(12, edges);
  const Allocation alloc = Allocation::full(Grid::parse("torus:12"), 1);
  EXPECT_DOUBLE_EQ(metrics::hop_bytes(graph, alloc, map_grasp(graph, alloc, iterations("4"))), 24);
}

TEST(Grasp, NeverWorseThanThePreviousStage) {
  const auto graph = testing::random_graph(90, 4, 2);
  const Allocation alloc = Allocation::full(Grid::parse("mesh:3x5x6"), 1);
  const Mapping before = testing::random_permutation(90, 3);
  MapOptions options = iterations("1");
  options.initial = &before;
  EXPECT_LE(metrics::hop_bytes(graph, alloc, map_grasp(graph, alloc, options)), metrics::hop_bytes(graph, alloc, before));
}

TEST(Grasp, AFixedIterationCountGivesTheSameAnswerOnAnyNumberOfThreads) {
  const auto graph = testing::random_graph(64, 4, 5);
  const Allocation alloc = Allocation::full(Grid::parse("torus:4x4"), 4);
  EXPECT_EQ(map_grasp(graph, alloc, iterations("5", 1)), map_grasp(graph, alloc, iterations("5", 3)));
}

TEST(Grasp, RefusesABadParameter) {
  const auto graph = testing::path_graph(4);
  const Allocation alloc = Allocation::full(Grid::parse("torus:4"), 1);
  EXPECT_THROW(map_grasp(graph, alloc, iterations("many")), InputError);
  EXPECT_THROW(map_grasp(graph, alloc, iterations("0")), InputError);
}

}  // namespace
}  // namespace rankmap::mapping
