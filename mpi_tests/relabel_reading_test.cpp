// MPI_Dist_graph_create_adjacent with reorder=1 used the way Open MPI users expect: each process keeps its data.
//
// Open MPI's treematch, since its 2023 fix (open-mpi/ompi issue #11756: translate each process's
// own in/out lists into the new communicator's ranks), and every MPI that ignores `reorder` give
// each process back its *own* adjacency lists, with its neighbours named by their new ranks. Codes
// written against that reading, such as Nektar++ (NeighborAllToAllV in
// library/MultiRegions/AssemblyMap/AssemblyCommDG.cpp, reorder=1), keep their data where it is,
// size their buffers from the lists they passed, and call a neighbourhood collective on the new
// communicator. Here each process does exactly that and checks that every value it receives came
// from the neighbour it expects. The graph is the scrambled ring of test_graphs.hpp, which a
// renumbering improves on the emulated torus, so the test fails whenever the layer renumbers a
// distributed graph behind the program's back, and passes when it does not (RANKMAP_DISABLE=1, or
// a default that renumbers no call).
#include "test_graphs.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

namespace rankmap::mpitest {
namespace {

/// Elements sent along edge from -> to (old ranks): differs per edge, so wrongly sized buffers show.
int count_on_edge(int from, int to) { return 1 + (from + 2 * to) % 3; }

/// The process's own vertex: its world rank and the lists it passes, in world ranks.
struct OwnVertex {
  int me = 0;
  VertexLists lists;
};

OwnVertex own_vertex() {
  const int n = size_of(MPI_COMM_WORLD), me = rank_of(MPI_COMM_WORLD);
  return {me, scrambled_ring(n)[me]};
}

MPI_Comm create_reordered(const OwnVertex& v) {
  MPI_Comm c = MPI_COMM_NULL;
  EXPECT_EQ(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(v.lists.sources.size()),
                                           v.lists.sources.data(), v.lists.source_weights.data(),
                                           static_cast<int>(v.lists.destinations.size()),
                                           v.lists.destinations.data(), v.lists.dest_weights.data(), MPI_INFO_NULL,
                                           1, &c),
            MPI_SUCCESS);
  // A mismatch of counts must fail the assertion below, not abort the job with MPI_ERR_TRUNCATE.
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  return c;
}

std::string error_string(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

/// The new ranks of the given world ranks.
std::vector<int> new_ranks_of(const std::vector<int>& world_ranks, MPI_Comm c) {
  MPI_Group world_group, new_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Comm_group(c, &new_group);
  std::vector<int> result(world_ranks.size());
  MPI_Group_translate_ranks(world_group, static_cast<int>(world_ranks.size()), world_ranks.data(), new_group,
                            result.data());
  MPI_Group_free(&world_group);
  MPI_Group_free(&new_group);
  return result;
}

TEST(RelabelReading, EachProcessKeepsItsOwnNeighboursUnderTheirNewRanks) {
  const OwnVertex v = own_vertex();
  MPI_Comm c = create_reordered(v);
  int indegree = 0, outdegree = 0, weighted = 0;
  MPI_Dist_graph_neighbors_count(c, &indegree, &outdegree, &weighted);
  std::vector<int> sources(indegree), source_weights(indegree), destinations(outdegree), dest_weights(outdegree);
  MPI_Dist_graph_neighbors(c, indegree, sources.data(), source_weights.data(), outdegree, destinations.data(),
                           dest_weights.data());
  EXPECT_EQ(sources, new_ranks_of(v.lists.sources, c)) << "world rank " << v.me;
  EXPECT_EQ(destinations, new_ranks_of(v.lists.destinations, c)) << "world rank " << v.me;
  EXPECT_EQ(source_weights, v.lists.source_weights);
  EXPECT_EQ(dest_weights, v.lists.dest_weights);
  MPI_Comm_free(&c);
}

TEST(RelabelReading, NeighborAlltoallvDeliversFromTheNeighboursThisProcessNamed) {
  const OwnVertex v = own_vertex();
  MPI_Comm c = create_reordered(v);

  // Buffers laid out by this process's own lists, filled with values naming sender, receiver, element.
  const auto& dst = v.lists.destinations;
  const auto& src = v.lists.sources;
  std::vector<int> scounts, sdispls, rcounts, rdispls, sendbuf;
  for (int d : dst) {
    sdispls.push_back(static_cast<int>(sendbuf.size()));
    scounts.push_back(count_on_edge(v.me, d));
    for (int i = 0; i < scounts.back(); ++i) sendbuf.push_back(encode(v.me, d, i));
  }
  int total = 0;
  for (int s : src) {
    rdispls.push_back(total);
    rcounts.push_back(count_on_edge(s, v.me));
    total += rcounts.back();
  }
  std::vector<int> recvbuf(static_cast<std::size_t>(total), -1);

  const int rc = MPI_Neighbor_alltoallv(sendbuf.data(), scounts.data(), sdispls.data(), MPI_INT, recvbuf.data(),
                                        rcounts.data(), rdispls.data(), MPI_INT, c);
  EXPECT_EQ(rc, MPI_SUCCESS) << "world rank " << v.me << ": " << error_string(rc);

  std::vector<int> expected;
  for (int s : src)
    for (int i = 0; i < count_on_edge(s, v.me); ++i) expected.push_back(encode(s, v.me, i));
  EXPECT_EQ(recvbuf, expected) << "world rank " << v.me << " (new rank " << rank_of(c)
                               << ") did not receive its own neighbours' values";
  MPI_Comm_free(&c);
}

}  // namespace
}  // namespace rankmap::mpitest
