// Under MPI_THREAD_MULTIPLE, two threads per process renumber distributed graphs at the same time,
// each on its own duplicate of MPI_COMM_WORLD: through the preload layer (THREADS_VIA_PRELOAD,
// MPI_Dist_graph_create_adjacent with RANKMAP_REORDER=all) or the C API. Both results must be
// renumbered and correct: the lists of each new rank's vertex, and a neighbourhood exchange.
#include "test_graphs.hpp"

#ifndef THREADS_VIA_PRELOAD
#include <rankmap.h>
#endif

#include <gtest/gtest.h>
#include <mpi.h>

#include <latch>
#include <thread>

namespace rankmap::mpitest {
namespace {

constexpr int kThreads = 2;
constexpr int kRounds = 3;
/// One ring per thread, in different orders, so that a thread given the other's verdict is seen.
constexpr std::uint64_t kSeeds[kThreads] = {7, 5};

/// What one thread found in one round, checked afterwards on the main thread.
struct Found {
  int status = -1;
  bool applied = false;          ///< the permutation is not the identity
  bool lists_are_vertex = false; ///< rank t reports vertex t's out-list
  bool exchange_right = false;   ///< a neighbourhood exchange delivered what each in-neighbour sent
};

const int* data_of(const std::vector<int>& v) {
  static const int dummy = 0;
  return v.empty() ? &dummy : v.data();
}

int* data_of(std::vector<int>& v) {
  thread_local int dummy = 0;
  return v.empty() ? &dummy : v.data();
}

int create(MPI_Comm comm, const VertexLists& v, MPI_Comm* result) {
  const int in = static_cast<int>(v.sources.size()), out = static_cast<int>(v.destinations.size());
#ifdef THREADS_VIA_PRELOAD
  return MPI_Dist_graph_create_adjacent(comm, in, data_of(v.sources), data_of(v.source_weights), out,
                                        data_of(v.destinations), data_of(v.dest_weights), MPI_INFO_NULL, 1, result);
#else
  return rankmap_dist_graph_create_adjacent(comm, in, data_of(v.sources), data_of(v.source_weights), out,
                                            data_of(v.destinations), data_of(v.dest_weights), MPI_INFO_NULL, 1,
                                            result, nullptr);
#endif
}

std::vector<int> out_neighbours(MPI_Comm c, std::vector<int>& in) {
  int indegree = 0, outdegree = 0, weighted = 0;
  MPI_Dist_graph_neighbors_count(c, &indegree, &outdegree, &weighted);
  std::vector<int> out(outdegree), in_w(indegree + 1), out_w(outdegree + 1);
  in.resize(indegree);
  MPI_Dist_graph_neighbors(c, indegree, in.data(), in_w.data(), outdegree, out.data(), out_w.data());
  return out;
}

bool exchange_right(MPI_Comm c, const std::vector<int>& in, const std::vector<int>& out) {
  const int me = rank_of(c);
  std::vector<int> send(out.size()), received(in.size(), -1);
  for (std::size_t k = 0; k < out.size(); ++k) send[k] = encode(me, out[k], 0);
  MPI_Neighbor_alltoall(data_of(send), 1, MPI_INT, data_of(received), 1, MPI_INT, c);
  for (std::size_t j = 0; j < in.size(); ++j)
    if (received[j] != encode(in[j], me, 0)) return false;
  return true;
}

Found one_round(MPI_Comm comm, std::uint64_t seed) {
  const auto g = scrambled_ring(size_of(comm), seed);
  Found f;
  MPI_Comm c = MPI_COMM_NULL;
  f.status = create(comm, g[rank_of(comm)], &c);
  if (f.status != MPI_SUCCESS || c == MPI_COMM_NULL) return f;
  f.applied = !is_identity(permutation_of(comm, c));
  std::vector<int> in;
  const std::vector<int> out = out_neighbours(c, in);
  f.lists_are_vertex = out == g[rank_of(c)].destinations && in == g[rank_of(c)].sources;
  f.exchange_right = exchange_right(c, in, out);
  MPI_Comm_free(&c);
  return f;
}

/// Open MPI 4.1 opens its topology framework lazily, at the first topology call, without a lock:
/// two threads making the process's first topology calls at once crash inside Open MPI, with or
/// without rankmap (the lock came with open-mpi/ompi pull request #9302, after 4.1). A program
/// that creates topologies from several threads must make one first, as this test does.
void open_topology_framework() {
  MPI_Comm self_graph = MPI_COMM_NULL;
  int none = 0;
  MPI_Dist_graph_create_adjacent(MPI_COMM_SELF, 0, &none, MPI_UNWEIGHTED, 0, &none, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                 &self_graph);
  if (self_graph != MPI_COMM_NULL) MPI_Comm_free(&self_graph);
}

TEST(ThreadMultiple, TwoThreadsRenumberTwoCommunicatorsAtOnce) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  ASSERT_EQ(provided, MPI_THREAD_MULTIPLE) << "this MPI does not provide MPI_THREAD_MULTIPLE";
  open_topology_framework();
  MPI_Comm comms[kThreads];
  for (MPI_Comm& c : comms) MPI_Comm_dup(MPI_COMM_WORLD, &c);
  Found found[kThreads][kRounds];
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      for (int round = 0; round < kRounds; ++round) found[t][round] = one_round(comms[t], kSeeds[t]);
    });
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t)
    for (int round = 0; round < kRounds; ++round) {
      SCOPED_TRACE("thread " + std::to_string(t) + ", round " + std::to_string(round));
      const Found& f = found[t][round];
      EXPECT_EQ(f.status, MPI_SUCCESS);
      EXPECT_TRUE(f.applied) << "the ring gains from renumbering here";
      EXPECT_TRUE(f.lists_are_vertex);
      EXPECT_TRUE(f.exchange_right);
    }
  for (MPI_Comm& c : comms) MPI_Comm_free(&c);
}

}  // namespace
}  // namespace rankmap::mpitest
