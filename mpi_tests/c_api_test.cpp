// The C API without the preload layer: result handles and notes, agreement on the permutation in
// both dist-graph forms, comm_reorder with migrate, coordinates of the emulated machine, and argument errors.
#include "test_graphs.hpp"

#include <rankmap.h>

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace rankmap::mpitest {
namespace {


/// Every rank holds the same vector: its minimum and maximum over ranks agree element-wise.
bool same_on_every_rank(std::vector<int> v) {
  std::vector<int> low(v.size()), high(v.size());
  MPI_Allreduce(v.data(), low.data(), static_cast<int>(v.size()), MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(v.data(), high.data(), static_cast<int>(v.size()), MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return low == high;
}

TEST(CApi, ResultGivesThePermutationEveryRankAgreesOn) {
  const auto g = scrambled_ring(size_of(MPI_COMM_WORLD));
  const VertexLists& v = g[rank_of(MPI_COMM_WORLD)];
  rankmap_result result = nullptr;
  ASSERT_EQ(rankmap_result_create(&result), RANKMAP_SUCCESS);
  MPI_Comm c;
  ASSERT_EQ(rankmap_dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(v.sources.size()), v.sources.data(),
                                               v.source_weights.data(), static_cast<int>(v.destinations.size()),
                                               v.destinations.data(), v.dest_weights.data(), MPI_INFO_NULL, 1, &c,
                                               result),
            RANKMAP_SUCCESS);
  int applied = -1, n = -1;
  EXPECT_EQ(rankmap_result_get_applied(result, &applied), RANKMAP_SUCCESS);
  EXPECT_EQ(rankmap_result_get_size(result, &n), RANKMAP_SUCCESS);
  const char* algorithm = nullptr;
  const char* objective = nullptr;
  double before = -1, after = -1, seconds = -1;
  EXPECT_EQ(rankmap_result_get_algorithm(result, &algorithm), RANKMAP_SUCCESS);
  EXPECT_EQ(rankmap_result_get_objective(result, &objective, &before, &after), RANKMAP_SUCCESS);
  EXPECT_EQ(rankmap_result_get_time(result, &seconds), RANKMAP_SUCCESS);
  const std::vector<int> actual = permutation_of(MPI_COMM_WORLD, c);
  if (applied) {
    ASSERT_EQ(n, size_of(MPI_COMM_WORLD));
    std::vector<int> slot_of(n);
    EXPECT_EQ(rankmap_result_get_permutation(result, n, slot_of.data()), RANKMAP_SUCCESS);
    EXPECT_EQ(slot_of, actual);
    EXPECT_TRUE(same_on_every_rank(slot_of));
    EXPECT_LT(after, before);
    if (n > 1) {
      EXPECT_EQ(rankmap_result_get_permutation(result, n - 1, slot_of.data()), RANKMAP_ERR_CAPACITY);
    }
  } else {
    EXPECT_EQ(n, 0);
    EXPECT_TRUE(is_identity(actual));
  }
  EXPECT_TRUE(same_on_every_rank({applied, static_cast<int>(before), static_cast<int>(after)}));
  EXPECT_EQ(rankmap_result_destroy(&result), RANKMAP_SUCCESS);
  EXPECT_EQ(result, nullptr);
  MPI_Comm_free(&c);
}

// The general form: each process gives the out-edges of its own vertex. The result must be the
// permutation the new communicator has, agreed by every rank, and never worse than the identity.
TEST(CApi, GeneralDistGraphCreateAgreesWithItsResult) {
  const int me = rank_of(MPI_COMM_WORLD);
  if (size_of(MPI_COMM_WORLD) < 2) GTEST_SKIP() << "Open MPI refuses the null edge arrays of a graph without edges";
  const auto g = scrambled_ring(size_of(MPI_COMM_WORLD));
  const VertexLists& v = g[me];
  const int degree = static_cast<int>(v.destinations.size());
  rankmap_result result = nullptr;
  ASSERT_EQ(rankmap_result_create(&result), RANKMAP_SUCCESS);
  MPI_Comm c;
  ASSERT_EQ(rankmap_dist_graph_create(MPI_COMM_WORLD, 1, &me, &degree, v.destinations.data(), v.dest_weights.data(),
                                      MPI_INFO_NULL, 1, &c, result),
            RANKMAP_SUCCESS);
  int applied = -1, n = -1;
  double before = -1, after = -1;
  ASSERT_EQ(rankmap_result_get_applied(result, &applied), RANKMAP_SUCCESS);
  ASSERT_EQ(rankmap_result_get_size(result, &n), RANKMAP_SUCCESS);
  ASSERT_EQ(rankmap_result_get_objective(result, nullptr, &before, &after), RANKMAP_SUCCESS);
  const std::vector<int> actual = permutation_of(MPI_COMM_WORLD, c);
  if (applied) {
    std::vector<int> slot_of(n);
    EXPECT_EQ(rankmap_result_get_permutation(result, n, slot_of.data()), RANKMAP_SUCCESS);
    EXPECT_EQ(slot_of, actual);
    EXPECT_LT(after, before);
  } else {
    EXPECT_TRUE(is_identity(actual));
  }
  EXPECT_TRUE(same_on_every_rank(actual));
  int indegree = -1, outdegree = -1, weighted = -1;
  MPI_Dist_graph_neighbors_count(c, &indegree, &outdegree, &weighted);
  EXPECT_EQ(outdegree, degree) << "the ring's vertices all have the same degree";
  EXPECT_EQ(rankmap_result_destroy(&result), RANKMAP_SUCCESS);
  MPI_Comm_free(&c);
}

// A graph the launcher's order already places best (a ring in rank order on the emulated 4x4 torus
// is at most one hop per edge) is not renumbered, and the note says why, the same on every rank.
TEST(CApi, NoteSaysWhyNothingWasApplied) {
  const int n = size_of(MPI_COMM_WORLD), me = rank_of(MPI_COMM_WORLD);
  if (n != 16) GTEST_SKIP() << "the ring is one hop per edge only when it fills the 4x4 torus";
  const int row = me / 4, col = me % 4;
  // A snake through the 4x4 torus in rank order: every edge is one hop.
  const auto snake = [](int r, int k) { return r * 4 + (r % 2 == 0 ? k : 3 - k); };
  std::vector<int> order;
  for (int r = 0; r < 4; ++r)
    for (int k = 0; k < 4; ++k) order.push_back(snake(r, k));
  const int at = static_cast<int>(std::find(order.begin(), order.end(), row * 4 + col) - order.begin());
  const int next = order[(at + 1) % n], prev = order[(at + n - 1) % n];
  const int sources[] = {prev, next}, destinations[] = {next, prev}, weights[] = {1, 1};
  rankmap_result result = nullptr;
  ASSERT_EQ(rankmap_result_create(&result), RANKMAP_SUCCESS);
  MPI_Comm c;
  ASSERT_EQ(rankmap_dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, weights, 2, destinations, weights,
                                               MPI_INFO_NULL, 1, &c, result),
            RANKMAP_SUCCESS);
  int applied = -1;
  const char* note = nullptr;
  ASSERT_EQ(rankmap_result_get_applied(result, &applied), RANKMAP_SUCCESS);
  ASSERT_EQ(rankmap_result_get_note(result, &note), RANKMAP_SUCCESS);
  EXPECT_EQ(applied, 0);
  ASSERT_NE(note, nullptr);
  const std::string text = note;
  EXPECT_TRUE(text == "the candidate is the identity" || text == "gain below RANKMAP_MIN_GAIN") << text;
  EXPECT_EQ(rankmap_result_get_note(nullptr, &note), RANKMAP_ERR_ARG);
  EXPECT_TRUE(is_identity(permutation_of(MPI_COMM_WORLD, c)));
  EXPECT_EQ(rankmap_result_destroy(&result), RANKMAP_SUCCESS);
  MPI_Comm_free(&c);
}

TEST(CApi, CommReorderThenMigrateGivesEachRankItsVertexData) {
  const auto g = scrambled_ring(size_of(MPI_COMM_WORLD));
  const int old_rank = rank_of(MPI_COMM_WORLD);
  const VertexLists& v = g[old_rank];
  MPI_Comm c;
  ASSERT_EQ(rankmap_comm_reorder(MPI_COMM_WORLD, static_cast<int>(v.destinations.size()), v.destinations.data(),
                                 v.dest_weights.data(), &c, nullptr),
            RANKMAP_SUCCESS);
  // Old rank r holds the data of vertex r; after migrating, new rank t holds vertex t's.
  const double mine[2] = {old_rank * 10.0, old_rank + 0.5};
  double got[2] = {-1, -1};
  ASSERT_EQ(rankmap_migrate(MPI_COMM_WORLD, c, mine, 2, MPI_DOUBLE, got, 2, MPI_DOUBLE), RANKMAP_SUCCESS);
  const int t = rank_of(c);
  EXPECT_EQ(got[0], t * 10.0);
  EXPECT_EQ(got[1], t + 0.5);
  MPI_Comm_free(&c);
}

TEST(CApi, MigrateRefusesCommunicatorsWithOtherProcesses) {
  double x = 0, y = 0;
  const int rc = rankmap_migrate(MPI_COMM_WORLD, MPI_COMM_SELF, &x, 1, MPI_DOUBLE, &y, 1, MPI_DOUBLE);
  EXPECT_EQ(rc, size_of(MPI_COMM_WORLD) == 1 ? RANKMAP_SUCCESS : RANKMAP_ERR_ARG);
}

TEST(CApi, CoordsOfTheEmulatedNode) {
  // RANKMAP_COORDS=emulate:torus:4x4 with one process per node: rank r is on node r, at (r/4, r%4).
  int ndims = 0, coords[8], extents[8], torus[8];
  ASSERT_EQ(rankmap_coords(8, &ndims, coords, extents, torus), RANKMAP_SUCCESS);
  const int r = rank_of(MPI_COMM_WORLD);
  EXPECT_EQ(ndims, 2);
  EXPECT_EQ(coords[0], r / 4);
  EXPECT_EQ(coords[1], r % 4);
  EXPECT_EQ(extents[0], 4);
  EXPECT_EQ(torus[1], 1);
  EXPECT_EQ(rankmap_coords(1, &ndims, coords, extents, torus), RANKMAP_ERR_CAPACITY);
}

TEST(CApi, HilbertDuplicateWalksTheTorusOneHopAtATime) {
  MPI_Comm h;
  ASSERT_EQ(rankmap_comm_hilbert(MPI_COMM_WORLD, &h), RANKMAP_SUCCESS);
  const std::vector<int> slot_of = permutation_of(MPI_COMM_WORLD, h);
  std::vector<int> sorted = slot_of;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_TRUE(is_identity(sorted));
  // On the full 4x4 torus (16 ranks, rank r at (r/4, r%4)) a Hilbert curve moves one hop per step.
  if (slot_of.size() == 16) {
    for (std::size_t t = 0; t + 1 < slot_of.size(); ++t) {
      const int a = slot_of[t], b = slot_of[t + 1];
      const int dx = std::abs(a / 4 - b / 4), dy = std::abs(a % 4 - b % 4);
      EXPECT_EQ(std::min(dx, 4 - dx) + std::min(dy, 4 - dy), 1) << "step " << t;
    }
  }
  MPI_Comm_free(&h);
}

TEST(CApi, ArgumentErrorsAreStatusCodes) {
  EXPECT_EQ(rankmap_result_create(nullptr), RANKMAP_ERR_ARG);
  EXPECT_EQ(rankmap_result_get_applied(nullptr, nullptr), RANKMAP_ERR_ARG);
  EXPECT_EQ(rankmap_comm_reorder(MPI_COMM_WORLD, 0, nullptr, nullptr, nullptr, nullptr), RANKMAP_ERR_ARG);
  EXPECT_STREQ(rankmap_strerror(RANKMAP_ERR_CAPACITY), "a buffer is too small for the result");
}

}  // namespace
}  // namespace rankmap::mpitest
