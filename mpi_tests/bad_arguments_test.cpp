// Erroneous topology arguments raise MPI_ERR_ARG through the communicator's error handler on every
// process, under both MPIs, instead of reaching MPI (MPICH 4.0 aborts on an out-of-range destination).
// Registered for two or more processes: a size-1 communicator is always passed to MPI unchanged.
#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <vector>

namespace {

class BadArguments : public ::testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  void TearDown() override { MPI_Comm_free(&comm_); }

  /// Every process gets MPI_ERR_ARG and MPI_COMM_NULL, although only some passed bad values.
  /// Call this after the call under test: an argument `result` would be read before the call ran.
  void expect_err_arg(int rc, MPI_Comm result) {
    int error_class = MPI_SUCCESS;
    MPI_Error_class(rc, &error_class);
    EXPECT_EQ(error_class, MPI_ERR_ARG);
    EXPECT_EQ(result, MPI_COMM_NULL);
  }

  /// A ring: rank r sends to r+1 and receives from r-1, with weight 1.
  int adjacent(int indegree, const int* sources, const int* sw, int outdegree, const int* destinations,
               const int* dw, MPI_Comm* result) {
    return MPI_Dist_graph_create_adjacent(comm_, indegree, sources, sw, outdegree, destinations, dw, MPI_INFO_NULL,
                                          1, result);
  }
  int next() const { return (rank_ + 1) % size_; }
  int prev() const { return (rank_ + size_ - 1) % size_; }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
};

TEST_F(BadArguments, NegativeDegreeOnOneProcess) {
  const int src = prev(), dst = next(), w = 1;
  MPI_Comm result = MPI_COMM_WORLD;
  const int rc = adjacent(rank_ == size_ - 1 ? -1 : 1, &src, &w, 1, &dst, &w, &result);
  expect_err_arg(rc, result);
}

TEST_F(BadArguments, DestinationOutOfRange) {
  const int src = prev(), dst = rank_ == 0 ? size_ : next(), w = 1;
  MPI_Comm result = MPI_COMM_WORLD;
  const int rc = adjacent(1, &src, &w, 1, &dst, &w, &result);
  expect_err_arg(rc, result);
}

TEST_F(BadArguments, NegativeWeight) {
  const int src = prev(), dst = next(), w = 1, bad = -5;
  MPI_Comm result = MPI_COMM_WORLD;
  const int rc = adjacent(1, &src, &w, 1, &dst, rank_ == 0 ? &bad : &w, &result);
  expect_err_arg(rc, result);
}

TEST_F(BadArguments, UnweightedOnSomeProcessesOnly) {
  const int src = prev(), dst = next(), w = 1;
  const int* weights = rank_ == 0 ? MPI_UNWEIGHTED : &w;
  MPI_Comm result = MPI_COMM_WORLD;
  const int rc = adjacent(1, &src, weights, 1, &dst, weights, &result);
  expect_err_arg(rc, result);
}

TEST_F(BadArguments, AdjacentListsThatDoNotMatch) {
  // Rank 0 declares an edge 0 -> 1 that rank 1 does not list among its sources.
  const int src = prev(), dst = next(), w = 1;
  const int extra[] = {next(), rank_ == 0 ? 1 : next()};
  const int weights[] = {1, 1};
  MPI_Comm result = MPI_COMM_WORLD;
  const int rc =
      rank_ == 0 ? adjacent(1, &src, &w, 2, extra, weights, &result) : adjacent(1, &src, &w, 1, &dst, &w, &result);
  expect_err_arg(rc, result);
}

TEST_F(BadArguments, DistGraphCreateWithNegativeDegree) {
  const int source = rank_, degree = rank_ == 0 ? -2 : 1, dst = next(), w = 1;
  MPI_Comm result = MPI_COMM_WORLD;
  const int rc = MPI_Dist_graph_create(comm_, 1, &source, &degree, &dst, &w, MPI_INFO_NULL, 1, &result);
  expect_err_arg(rc, result);
}

TEST_F(BadArguments, CartGridLargerThanTheCommunicator) {
  const int dims[] = {size_ + 1}, periods[] = {0};
  MPI_Comm result = MPI_COMM_WORLD;
  const int rc = MPI_Cart_create(comm_, 1, dims, periods, 1, &result);
  expect_err_arg(rc, result);
}

TEST_F(BadArguments, GraphEdgeToANodeThatDoesNotExist) {
  std::vector<int> index(size_), edges(size_);
  for (int v = 0; v < size_; ++v) {
    index[v] = v + 1;
    edges[v] = (v + 1) % size_;
  }
  edges[0] = size_ + 3;
  MPI_Comm result = MPI_COMM_WORLD;
  const int rc = MPI_Graph_create(comm_, size_, index.data(), edges.data(), 1, &result);
  expect_err_arg(rc, result);
}

}  // namespace
