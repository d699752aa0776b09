// Distributed graph communicators built under the preload layer: exact neighbour lists per vertex,
// neighbourhood collectives, bit-identical halo exchanges, and the edge cases of the MPI standard.
#include "test_graphs.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>

namespace rankmap::mpitest {
namespace {

enum class Weights { given, unweighted, empty_when_isolated };


/// MPI calls reject a null buffer even with zero counts, and an empty vector's data() is null.
int* buffer(std::vector<int>& v) {
  static int dummy = 0;
  return v.empty() ? &dummy : v.data();
}
const int* buffer(const std::vector<int>& v) {
  static const int dummy = 0;
  return v.empty() ? &dummy : v.data();
}

MPI_Comm create_adjacent(MPI_Comm comm, const std::vector<VertexLists>& g, Weights mode, int reorder) {
  const VertexLists& v = g[rank_of(comm)];
  auto weights = [&](const std::vector<int>& w) -> const int* {
    if (mode == Weights::unweighted) return MPI_UNWEIGHTED;
    if (mode == Weights::empty_when_isolated && w.empty()) return MPI_WEIGHTS_EMPTY;
    return buffer(w);
  };
  MPI_Comm result = MPI_COMM_NULL;
  EXPECT_EQ(MPI_Dist_graph_create_adjacent(comm, static_cast<int>(v.sources.size()), buffer(v.sources),
                                           weights(v.source_weights), static_cast<int>(v.destinations.size()),
                                           buffer(v.destinations), weights(v.dest_weights), MPI_INFO_NULL, reorder,
                                           &result),
            MPI_SUCCESS);
  return result;
}

/// The lists MPI reports for this process on a distributed graph communicator.
VertexLists reported(MPI_Comm c, int* weighted) {
  int indegree = 0, outdegree = 0;
  MPI_Dist_graph_neighbors_count(c, &indegree, &outdegree, weighted);
  VertexLists v;
  v.sources.resize(indegree);
  v.source_weights.resize(indegree);
  v.destinations.resize(outdegree);
  v.dest_weights.resize(outdegree);
  MPI_Dist_graph_neighbors(c, indegree, v.sources.data(), v.source_weights.data(), outdegree, v.destinations.data(),
                           v.dest_weights.data());
  return v;
}

void expect_lists_of_vertex(MPI_Comm c, const VertexLists& expected, Weights mode) {
  int weighted = -1;
  const VertexLists got = reported(c, &weighted);
  EXPECT_EQ(weighted != 0, mode != Weights::unweighted);
  EXPECT_EQ(got.sources, expected.sources);
  EXPECT_EQ(got.destinations, expected.destinations);
  if (mode != Weights::unweighted) {
    EXPECT_EQ(got.source_weights, expected.source_weights);
    EXPECT_EQ(got.dest_weights, expected.dest_weights);
  }
}

/// How many times list[i] occurs in list[0..i): parallel edges carry their messages in this order.
std::vector<int> occurrence(const std::vector<int>& list) {
  std::vector<int> m(list.size());
  std::map<int, int> seen;
  for (std::size_t i = 0; i < list.size(); ++i) m[i] = seen[list[i]]++;
  return m;
}

int vcount(int from, int to, int m) { return 1 + (from + 2 * to + m) % 3; }

/// What MPI_Neighbor_alltoall, _allgather, _alltoallv and _allgatherv deliver to this process,
/// concatenated, when every sender encodes itself, the receiver and the parallel edge used.
std::vector<int> collective_results(MPI_Comm c) {
  int weighted = 0;
  const VertexLists v = reported(c, &weighted);
  const int me = rank_of(c);
  const int in = static_cast<int>(v.sources.size()), out = static_cast<int>(v.destinations.size());
  const auto out_m = occurrence(v.destinations), in_m = occurrence(v.sources);
  std::vector<int> results;
  auto keep = [&](const std::vector<int>& r) { results.insert(results.end(), r.begin(), r.end()); };

  std::vector<int> send(out), recv(in, -1);
  for (int k = 0; k < out; ++k) send[k] = encode(me, v.destinations[k], out_m[k]);
  MPI_Neighbor_alltoall(buffer(send), 1, MPI_INT, buffer(recv), 1, MPI_INT, c);
  keep(recv);

  const int mine = encode(me, 0, 0);
  MPI_Neighbor_allgather(&mine, 1, MPI_INT, buffer(recv), 1, MPI_INT, c);
  keep(recv);

  std::vector<int> scounts(out), sdispls(out), rcounts(in), rdispls(in), sendv, recvv;
  for (int k = 0; k < out; ++k) {
    scounts[k] = vcount(me, v.destinations[k], out_m[k]);
    sdispls[k] = static_cast<int>(sendv.size());
    for (int i = 0; i < scounts[k]; ++i) sendv.push_back(encode(me, v.destinations[k], out_m[k]) * 4 + i);
  }
  int total = 0;
  for (int j = 0; j < in; ++j) {
    rcounts[j] = vcount(v.sources[j], me, in_m[j]);
    rdispls[j] = total;
    total += rcounts[j];
  }
  recvv.assign(total, -1);
  MPI_Neighbor_alltoallv(buffer(sendv), buffer(scounts), buffer(sdispls), MPI_INT, buffer(recvv), buffer(rcounts),
                         buffer(rdispls), MPI_INT, c);
  keep(recvv);

  std::vector<int> block(1 + me % 3);
  for (std::size_t i = 0; i < block.size(); ++i) block[i] = encode(me, 0, static_cast<int>(i));
  total = 0;
  for (int j = 0; j < in; ++j) {
    rcounts[j] = 1 + v.sources[j] % 3;
    rdispls[j] = total;
    total += rcounts[j];
  }
  recvv.assign(total, -1);
  MPI_Neighbor_allgatherv(block.data(), static_cast<int>(block.size()), MPI_INT, buffer(recvv), buffer(rcounts),
                          buffer(rdispls), MPI_INT, c);
  keep(recvv);
  return results;
}

/// What collective_results() must return by the MPI standard, from the lists MPI reports.
std::vector<int> expected_results(MPI_Comm c) {
  int weighted = 0;
  const VertexLists v = reported(c, &weighted);
  const int me = rank_of(c);
  const auto in_m = occurrence(v.sources);
  std::vector<int> results;
  for (std::size_t j = 0; j < v.sources.size(); ++j) results.push_back(encode(v.sources[j], me, in_m[j]));
  for (int s : v.sources) results.push_back(encode(s, 0, 0));
  for (std::size_t j = 0; j < v.sources.size(); ++j)
    for (int i = 0; i < vcount(v.sources[j], me, in_m[j]); ++i)
      results.push_back(encode(v.sources[j], me, in_m[j]) * 4 + i);
  for (int s : v.sources)
    for (int i = 0; i < 1 + s % 3; ++i) results.push_back(encode(s, 0, i));
  return results;
}

void expect_collectives_correct(MPI_Comm c) { EXPECT_EQ(collective_results(c), expected_results(c)); }

/// Every vertex's results, in vertex (= rank) order, on every process.
std::vector<std::vector<int>> results_by_vertex(MPI_Comm c, const std::vector<int>& mine) {
  const int n = size_of(c);
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(n), displs(n), all;
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, c);
  for (int r = 1; r < n; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  all.resize(displs[n - 1] + counts[n - 1]);
  MPI_Allgatherv(mine.data(), count, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT, c);
  std::vector<std::vector<int>> by_vertex(n);
  for (int r = 0; r < n; ++r) by_vertex[r].assign(all.begin() + displs[r], all.begin() + displs[r] + counts[r]);
  return by_vertex;
}

/// Each vertex receives in `reordered` exactly what it receives in `plain`. This holds whatever the
/// MPI does with parallel edges (MPICH 4.0's MPI_Neighbor_alltoall delivers them in reverse order).
void expect_collectives_as_without_reorder(MPI_Comm plain, MPI_Comm reordered) {
  EXPECT_EQ(results_by_vertex(plain, collective_results(plain)),
            results_by_vertex(reordered, collective_results(reordered)));
}

/// A weighted averaging iteration over point-to-point messages along the graph; the final value
/// of every vertex, gathered by vertex (= rank) on rank 0 and broadcast.
std::vector<double> halo_iterations(MPI_Comm c, const std::vector<VertexLists>& g) {
  const int me = rank_of(c), n = size_of(c);
  const VertexLists& v = g[me];
  double x = std::sin(me + 1.0);
  const auto in_m = occurrence(v.sources), out_m = occurrence(v.destinations);
  for (int it = 0; it < 5; ++it) {
    std::vector<double> recv(v.sources.size());
    std::vector<MPI_Request> requests;
    for (std::size_t j = 0; j < v.sources.size(); ++j) {
      requests.emplace_back();
      MPI_Irecv(&recv[j], 1, MPI_DOUBLE, v.sources[j], in_m[j], c, &requests.back());
    }
    for (std::size_t k = 0; k < v.destinations.size(); ++k) {
      requests.emplace_back();
      MPI_Isend(&x, 1, MPI_DOUBLE, v.destinations[k], out_m[k], c, &requests.back());
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    double sum = 0, weight = 0;
    for (std::size_t j = 0; j < recv.size(); ++j) {
      sum += v.source_weights[j] * recv[j];
      weight += v.source_weights[j];
    }
    x = weight > 0 ? 0.5 * x + 0.5 * sum / weight : x;
  }
  std::vector<double> all(n);
  MPI_Gather(&x, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, c);
  MPI_Bcast(all.data(), n, MPI_DOUBLE, 0, c);
  return all;
}

/// Set for runs whose emulated machine makes a reorder of the scrambled ring worthwhile.
bool reorder_expected() {
  const char* v = std::getenv("MPITEST_EXPECT_REORDER");
  return v && std::strcmp(v, "1") == 0;
}

TEST(DistGraphAdjacent, NeighborsAreExactlyTheListsOfTheNewRanksVertex) {
  const auto g = scrambled_ring(size_of(MPI_COMM_WORLD));
  MPI_Comm c = create_adjacent(MPI_COMM_WORLD, g, Weights::given, 1);
  expect_lists_of_vertex(c, g[rank_of(c)], Weights::given);
  const std::vector<int> slot_of = permutation_of(MPI_COMM_WORLD, c);
  if (reorder_expected()) {
    EXPECT_FALSE(is_identity(slot_of)) << "the emulated machine should have been used";
  }
  MPI_Comm_free(&c);
}

TEST(DistGraphAdjacent, NeighborhoodCollectivesDeliverCorrectData) {
  const auto g = scrambled_ring(size_of(MPI_COMM_WORLD));
  MPI_Comm c = create_adjacent(MPI_COMM_WORLD, g, Weights::given, 1);
  expect_collectives_correct(c);
  MPI_Comm_free(&c);
}

TEST(DistGraphAdjacent, HaloExchangeIsBitIdenticalToTheUnreorderedRun) {
  const auto g = scrambled_ring(size_of(MPI_COMM_WORLD));
  MPI_Comm plain = create_adjacent(MPI_COMM_WORLD, g, Weights::given, 0);
  MPI_Comm reordered = create_adjacent(MPI_COMM_WORLD, g, Weights::given, 1);
  const std::vector<double> a = halo_iterations(plain, g), b = halo_iterations(reordered, g);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0);
  MPI_Comm_free(&plain);
  MPI_Comm_free(&reordered);
}

TEST(DistGraphAdjacent, TheNewCommunicatorInheritsTheErrorHandler) {
  MPI_Comm parent;
  MPI_Comm_dup(MPI_COMM_WORLD, &parent);
  MPI_Comm_set_errhandler(parent, MPI_ERRORS_RETURN);
  const auto g = scrambled_ring(size_of(parent));
  MPI_Comm c = create_adjacent(parent, g, Weights::given, 1);
  MPI_Errhandler handler;
  MPI_Comm_get_errhandler(c, &handler);
  EXPECT_EQ(handler, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&handler);
  MPI_Comm_free(&c);
  MPI_Comm_free(&parent);
}

TEST(DistGraphAdjacent, ReorderFalseKeepsEveryRank) {
  const auto g = scrambled_ring(size_of(MPI_COMM_WORLD));
  MPI_Comm c = create_adjacent(MPI_COMM_WORLD, g, Weights::given, 0);
  EXPECT_EQ(rank_of(c), rank_of(MPI_COMM_WORLD));
  expect_lists_of_vertex(c, g[rank_of(c)], Weights::given);
  MPI_Comm_free(&c);
}

TEST(DistGraphAdjacent, Unweighted) {
  const auto g = scrambled_ring(size_of(MPI_COMM_WORLD));
  MPI_Comm c = create_adjacent(MPI_COMM_WORLD, g, Weights::unweighted, 1);
  expect_lists_of_vertex(c, g[rank_of(c)], Weights::unweighted);
  expect_collectives_correct(c);
  MPI_Comm_free(&c);
}

TEST(DistGraphAdjacent, DuplicatesSelfLoopsZeroDegreesAndWeightsEmpty) {
  const auto g = awkward_graph(size_of(MPI_COMM_WORLD));
  MPI_Comm plain = create_adjacent(MPI_COMM_WORLD, g, Weights::empty_when_isolated, 0);
  MPI_Comm c = create_adjacent(MPI_COMM_WORLD, g, Weights::empty_when_isolated, 1);
  expect_lists_of_vertex(c, g[rank_of(c)], Weights::empty_when_isolated);
  expect_collectives_as_without_reorder(plain, c);
  MPI_Comm_free(&c);
  MPI_Comm_free(&plain);
}

TEST(DistGraphAdjacent, SizeOneCommunicator) {
  const auto g = lists_from_edges(1, {{0, 0, 3}});
  MPI_Comm c = create_adjacent(MPI_COMM_SELF, g, Weights::given, 1);
  EXPECT_EQ(rank_of(c), 0);
  expect_lists_of_vertex(c, g[0], Weights::given);
  MPI_Comm_free(&c);
}

TEST(DistGraphAdjacent, SubCommunicatorsAreReorderedWithinThemselves) {
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank_of(MPI_COMM_WORLD) % 2, rank_of(MPI_COMM_WORLD), &half);
  const auto g = scrambled_ring(size_of(half));
  MPI_Comm c = create_adjacent(half, g, Weights::given, 1);
  expect_lists_of_vertex(c, g[rank_of(c)], Weights::given);
  expect_collectives_correct(c);
  MPI_Comm_free(&c);
  MPI_Comm_free(&half);
}

TEST(DistGraphGeneral, EdgesGivenByAnyProcessReachTheirVertex) {
  // Process r declares the out-edges of vertex r+1: MPI_Dist_graph_create accepts any split.
  const int n = size_of(MPI_COMM_WORLD);
  const auto g = scrambled_ring(n);
  const int v = (rank_of(MPI_COMM_WORLD) + 1) % n;
  const int degree = static_cast<int>(g[v].destinations.size());
  MPI_Comm c;
  ASSERT_EQ(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &v, &degree, buffer(g[v].destinations),
                                  buffer(g[v].dest_weights), MPI_INFO_NULL, 1, &c),
            MPI_SUCCESS);
  int weighted = 0;
  const VertexLists got = reported(c, &weighted);
  // MPI leaves the order of these lists to the implementation: compare (rank, weight) sets.
  auto pairs = [](const std::vector<int>& r, const std::vector<int>& w) {
    std::vector<std::pair<int, int>> p;
    for (std::size_t i = 0; i < r.size(); ++i) p.emplace_back(r[i], w[i]);
    std::sort(p.begin(), p.end());
    return p;
  };
  const VertexLists& expected = g[rank_of(c)];
  EXPECT_EQ(pairs(got.destinations, got.dest_weights), pairs(expected.destinations, expected.dest_weights));
  EXPECT_EQ(pairs(got.sources, got.source_weights), pairs(expected.sources, expected.source_weights));
  expect_collectives_correct(c);
  MPI_Comm_free(&c);
}

}  // namespace
}  // namespace rankmap::mpitest
