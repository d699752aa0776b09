// Cartesian and graph topologies under the preload layer: coordinates, shifts and neighbours agree with the new ranks.
#include "test_graphs.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

namespace rankmap::mpitest {
namespace {

int world_size() { return size_of(MPI_COMM_WORLD); }

/// Cart_coords and Cart_rank invert each other, and every shift lands where coordinate arithmetic says.
void expect_cart_consistent(MPI_Comm cart, const std::vector<int>& dims, const std::vector<int>& periods) {
  const int ndims = static_cast<int>(dims.size());
  int rank = 0;
  MPI_Comm_rank(cart, &rank);
  std::vector<int> coords(ndims), got_dims(ndims), got_periods(ndims), got_coords(ndims);
  MPI_Cart_coords(cart, rank, ndims, coords.data());
  MPI_Cart_get(cart, ndims, got_dims.data(), got_periods.data(), got_coords.data());
  EXPECT_EQ(got_dims, dims);
  EXPECT_EQ(got_coords, coords);
  int back = -1;
  MPI_Cart_rank(cart, coords.data(), &back);
  EXPECT_EQ(back, rank);
  // Row-major: the last dimension varies fastest, whatever the reorder did to the processes.
  int expected = 0;
  for (int d = 0; d < ndims; ++d) expected = expected * dims[d] + coords[d];
  EXPECT_EQ(rank, expected);
  for (int d = 0; d < ndims; ++d) {
    int source = -1, dest = -1;
    MPI_Cart_shift(cart, d, 1, &source, &dest);
    for (auto [step, got] : {std::pair{-1, source}, std::pair{1, dest}}) {
      std::vector<int> c = coords;
      c[d] += step;
      if (c[d] < 0 || c[d] >= dims[d]) {
        if (!periods[d]) {
          EXPECT_EQ(got, MPI_PROC_NULL);
          continue;
        }
        c[d] = (c[d] + dims[d]) % dims[d];
      }
      int r = -1;
      MPI_Cart_rank(cart, c.data(), &r);
      EXPECT_EQ(got, r) << "dimension " << d << " step " << step;
    }
  }
  // A halo exchange along the shifts carries each neighbour's rank.
  for (int d = 0; d < ndims; ++d) {
    int source = -1, dest = -1, got = -7;
    MPI_Cart_shift(cart, d, 1, &source, &dest);
    MPI_Sendrecv(&rank, 1, MPI_INT, dest, 0, &got, 1, MPI_INT, source, 0, cart, MPI_STATUS_IGNORE);
    if (source != MPI_PROC_NULL) {
      EXPECT_EQ(got, source);
    }
  }
}

TEST(CartCreate, PeriodicAndNonPeriodicDimensionsStayConsistent) {
  std::vector<int> dims(2, 0);
  MPI_Dims_create(world_size(), 2, dims.data());
  const std::vector<int> periods = {1, 0};
  MPI_Comm cart;
  ASSERT_EQ(MPI_Cart_create(MPI_COMM_WORLD, 2, dims.data(), periods.data(), 1, &cart), MPI_SUCCESS);
  expect_cart_consistent(cart, dims, periods);
  MPI_Comm_free(&cart);
}

TEST(CartCreate, ThreeDimensionsAllPeriodic) {
  std::vector<int> dims(3, 0);
  MPI_Dims_create(world_size(), 3, dims.data());
  const std::vector<int> periods = {1, 1, 1};
  MPI_Comm cart;
  ASSERT_EQ(MPI_Cart_create(MPI_COMM_WORLD, 3, dims.data(), periods.data(), 1, &cart), MPI_SUCCESS);
  expect_cart_consistent(cart, dims, periods);
  MPI_Comm_free(&cart);
}

TEST(CartCreate, ProcessesBeyondTheGridGetCommNull) {
  const int n = world_size();
  const std::vector<int> dims = {n > 2 ? n - 1 : n};
  const std::vector<int> periods = {0};
  MPI_Comm cart;
  ASSERT_EQ(MPI_Cart_create(MPI_COMM_WORLD, 1, dims.data(), periods.data(), 1, &cart), MPI_SUCCESS);
  int inside = cart != MPI_COMM_NULL, total = 0;
  MPI_Allreduce(&inside, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, dims[0]);
  if (cart != MPI_COMM_NULL) {
    expect_cart_consistent(cart, dims, periods);
    MPI_Comm_free(&cart);
  }
}

TEST(GraphCreate, NeighborsAreThoseOfTheNewRanksNode) {
  const int n = world_size();
  // A single node gets a self loop: MPI_Graph_create refuses a null edges array.
  const auto g = n > 1 ? scrambled_ring(n) : lists_from_edges(1, {{0, 0, 1}});
  std::vector<int> index, edges;
  for (int v = 0; v < n; ++v) {
    edges.insert(edges.end(), g[v].destinations.begin(), g[v].destinations.end());
    index.push_back(static_cast<int>(edges.size()));
  }
  MPI_Comm graph;
  ASSERT_EQ(MPI_Graph_create(MPI_COMM_WORLD, n, index.data(), edges.data(), 1, &graph), MPI_SUCCESS);
  int rank = 0, count = -1;
  MPI_Comm_rank(graph, &rank);
  MPI_Graph_neighbors_count(graph, rank, &count);
  std::vector<int> neighbors(count);
  MPI_Graph_neighbors(graph, rank, count, neighbors.data());
  EXPECT_EQ(neighbors, g[rank].destinations);
  MPI_Comm_free(&graph);
}

}  // namespace
}  // namespace rankmap::mpitest
