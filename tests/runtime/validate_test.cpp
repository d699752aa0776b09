// Local argument checks of the topology calls, with the message each problem gets.
#include "validate.hpp"

#include <gtest/gtest.h>

namespace rankmap::runtime {
namespace {

TEST(Validate, AdjacentListsAcceptValidInput) {
  const int ranks[] = {1, 2}, weights[] = {3, 0};
  const LocalCheck c = check_dist_graph_adjacent(4, 2, ranks, weights, 2, ranks, weights);
  EXPECT_EQ(c.error, "");
  EXPECT_TRUE(c.weighted);
  EXPECT_FALSE(c.unweighted);
  const LocalCheck u = check_dist_graph_adjacent(4, 2, ranks, MPI_UNWEIGHTED, 0, nullptr, MPI_UNWEIGHTED);
  EXPECT_EQ(u.error, "");
  EXPECT_TRUE(u.unweighted);
  EXPECT_EQ(check_dist_graph_adjacent(4, 0, nullptr, MPI_WEIGHTS_EMPTY, 2, ranks, weights).error, "");
}

TEST(Validate, AdjacentListsNameTheirProblem) {
  const int ranks[] = {1, 4}, weights[] = {3, -1}, ok[] = {1, 1};
  EXPECT_EQ(check_dist_graph_adjacent(4, -1, ranks, ok, 0, nullptr, ok).error, "indegree -1 is negative");
  EXPECT_EQ(check_dist_graph_adjacent(4, 2, ranks, ok, 0, nullptr, ok).error,
            "sources[1] = 4 is not a rank of the communicator (size 4)");
  EXPECT_EQ(check_dist_graph_adjacent(5, 2, ranks, weights, 0, nullptr, ok).error, "sourceweights[1] = -1 is negative");
  EXPECT_EQ(check_dist_graph_adjacent(5, 2, ranks, MPI_WEIGHTS_EMPTY, 0, nullptr, ok).error,
            "sourceweights is MPI_WEIGHTS_EMPTY but the degree is 2");
  EXPECT_EQ(check_dist_graph_adjacent(5, 2, ranks, MPI_UNWEIGHTED, 2, ranks, ok).error,
            "MPI_UNWEIGHTED is given for one list and weights for another");
}

TEST(Validate, GeneralDistGraph) {
  const int sources[] = {0, 3}, degrees[] = {1, 2}, destinations[] = {1, 2, 3}, weights[] = {1, 1, 1};
  EXPECT_EQ(check_dist_graph(4, 2, sources, degrees, destinations, weights).error, "");
  const int negative[] = {1, -2};
  EXPECT_EQ(check_dist_graph(4, 2, sources, negative, destinations, weights).error, "degrees[1] = -2 is negative");
  EXPECT_EQ(check_dist_graph(3, 2, sources, degrees, destinations, weights).error,
            "sources[1] = 3 is not a rank of the communicator (size 3)");
}

TEST(Validate, CartesianAndGraphTopologies) {
  const int dims[] = {2, 3};
  EXPECT_EQ(check_cart(6, 2, dims).error, "");
  EXPECT_EQ(check_cart(5, 2, dims).error, "the grid has more than the communicator's 5 processes");
  const int zero[] = {2, 0};
  EXPECT_EQ(check_cart(6, 2, zero).error, "dims[1] = 0 is not positive");
  const int index[] = {1, 3, 2}, edges[] = {1, 0, 2};
  EXPECT_EQ(check_graph(3, 3, index, edges).error, "index[2] = 2 is smaller than the one before");
  const int good_index[] = {1, 2, 3}, far[] = {1, 0, 5};
  EXPECT_EQ(check_graph(3, 3, good_index, far).error, "edges[2] = 5 is not a rank of the communicator (size 3)");
  EXPECT_EQ(check_graph(3, 4, good_index, edges).error, "nnodes 4 is not from 0 to the communicator size 3");
}

}  // namespace
}  // namespace rankmap::runtime
