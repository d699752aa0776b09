// Every step of the reorder protocol failed in turn on one process (rank 0, then the last rank),
// through the preload layer (FAULTS_VIA_PRELOAD) or the C API: no process hangs, every process
// falls back to the plain MPI call together and says so, and the communicator it gets works.
#include "fault_hooks.hpp"
#include "test_graphs.hpp"

#ifndef FAULTS_VIA_PRELOAD
#include <rankmap.h>
#endif

#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <set>
#include <string>

namespace rankmap::mpitest {
namespace {

/// The calls under test: the three forms the preload layer renumbers through two code paths
/// (gathered and replicated graphs), and the C API's own calls.
enum class Kind { adjacent, general, graph, comm_reorder, hilbert };

#ifdef FAULTS_VIA_PRELOAD
constexpr Kind kKinds[] = {Kind::adjacent, Kind::general, Kind::graph};
#else
constexpr Kind kKinds[] = {Kind::adjacent, Kind::general, Kind::comm_reorder, Kind::hilbert};
#endif

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::adjacent: return "dist_graph_create_adjacent";
    case Kind::general: return "dist_graph_create";
    case Kind::graph: return "graph_create";
    case Kind::comm_reorder: return "comm_reorder";
    case Kind::hilbert: return "comm_hilbert";
  }
  return "?";
}

const int* data_of(const std::vector<int>& v) {
  static const int dummy = 0;
  return v.empty() ? &dummy : v.data();
}

/// What one call gave this process.
struct Made {
  MPI_Comm comm = MPI_COMM_NULL;
  int status = -1;  ///< MPI's or rankmap's
  bool applied = false;
  bool has_note = false;
  std::string note;
};

#ifdef FAULTS_VIA_PRELOAD
/// The whole ring as MPI_Graph_create takes it.
void ring_as_graph(const std::vector<VertexLists>& g, std::vector<int>& index, std::vector<int>& edges) {
  for (const VertexLists& v : g) {
    edges.insert(edges.end(), v.destinations.begin(), v.destinations.end());
    index.push_back(static_cast<int>(edges.size()));
  }
}

Made make(Kind kind, const FaultHooks& hooks) {
  const auto g = scrambled_ring(size_of(MPI_COMM_WORLD));
  const int me = rank_of(MPI_COMM_WORLD);
  const VertexLists& v = g[me];
  const int in = static_cast<int>(v.sources.size()), out = static_cast<int>(v.destinations.size());
  Made m;
  if (kind == Kind::adjacent) {
    m.status = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, in, data_of(v.sources), data_of(v.source_weights), out,
                                              data_of(v.destinations), data_of(v.dest_weights), MPI_INFO_NULL, 1,
                                              &m.comm);
  } else if (kind == Kind::general) {
    m.status = MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &me, &out, data_of(v.destinations), data_of(v.dest_weights),
                                     MPI_INFO_NULL, 1, &m.comm);
  } else {
    std::vector<int> index, edges;
    ring_as_graph(g, index, edges);
    m.status = MPI_Graph_create(MPI_COMM_WORLD, size_of(MPI_COMM_WORLD), index.data(), edges.data(), 1, &m.comm);
  }
  int applied = 0;
  const char* note = nullptr;
  m.has_note = hooks.last_outcome(&applied, &note) == 1;
  if (m.has_note) {
    m.applied = applied != 0;
    m.note = note;
  }
  return m;
}
#else
Made make(Kind kind, const FaultHooks&) {
  const auto g = scrambled_ring(size_of(MPI_COMM_WORLD));
  const int me = rank_of(MPI_COMM_WORLD);
  const VertexLists& v = g[me];
  const int in = static_cast<int>(v.sources.size()), out = static_cast<int>(v.destinations.size());
  Made m;
  if (kind == Kind::hilbert) {
    // No result handle: a fall-back is the duplicate in the old order.
    m.status = rankmap_comm_hilbert(MPI_COMM_WORLD, &m.comm);
    if (m.status == RANKMAP_SUCCESS) m.applied = !is_identity(permutation_of(MPI_COMM_WORLD, m.comm));
    return m;
  }
  rankmap_result result = nullptr;
  rankmap_result_create(&result);
  if (kind == Kind::adjacent)
    m.status = rankmap_dist_graph_create_adjacent(MPI_COMM_WORLD, in, data_of(v.sources), data_of(v.source_weights),
                                                  out, data_of(v.destinations), data_of(v.dest_weights),
                                                  MPI_INFO_NULL, 1, &m.comm, result);
  else if (kind == Kind::general)
    m.status = rankmap_dist_graph_create(MPI_COMM_WORLD, 1, &me, &out, data_of(v.destinations),
                                         data_of(v.dest_weights), MPI_INFO_NULL, 1, &m.comm, result);
  else
    m.status = rankmap_comm_reorder(MPI_COMM_WORLD, out, data_of(v.destinations), data_of(v.dest_weights), &m.comm,
                                    result);
  int applied = 0;
  const char* note = nullptr;
  rankmap_result_get_applied(result, &applied);
  rankmap_result_get_note(result, &note);
  m.applied = applied != 0;
  m.has_note = true;
  m.note = note;
  rankmap_result_destroy(&result);
  return m;
}
#endif

/// The world ranks of ranks of `c`.
std::vector<int> in_world_ranks(MPI_Comm c, const std::vector<int>& ranks) {
  MPI_Group group, world;
  MPI_Comm_group(c, &group);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> out(ranks.size());
  MPI_Group_translate_ranks(group, static_cast<int>(ranks.size()), data_of(ranks), world, out.data());
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  return out;
}

/// The in- and out-neighbours MPI reports for this process on a graph or distributed graph communicator.
void neighbours(MPI_Comm c, std::vector<int>& in, std::vector<int>& out) {
  int kind = MPI_UNDEFINED;
  MPI_Topo_test(c, &kind);
  if (kind == MPI_GRAPH) {
    int count = 0;
    MPI_Graph_neighbors_count(c, rank_of(c), &count);
    in.resize(count);
    MPI_Graph_neighbors(c, rank_of(c), count, in.data());
    out = in;
    return;
  }
  int indegree = 0, outdegree = 0, weighted = 0;
  MPI_Dist_graph_neighbors_count(c, &indegree, &outdegree, &weighted);
  in.resize(indegree);
  out.resize(outdegree);
  std::vector<int> in_w(indegree + 1), out_w(outdegree + 1);
  MPI_Dist_graph_neighbors(c, indegree, in.data(), in_w.data(), outdegree, out.data(), out_w.data());
}

/// A neighbourhood exchange on `c` delivers, from every in-neighbour, what that neighbour sent to this process.
void expect_neighbour_exchange_right(MPI_Comm c) {
  std::vector<int> in, out;
  neighbours(c, in, out);
  const int me = rank_of(c);
  std::vector<int> send(out.size()), received(in.size(), -1), expected(in.size());
  for (std::size_t k = 0; k < out.size(); ++k) send[k] = encode(me, out[k], 0);
  for (std::size_t j = 0; j < in.size(); ++j) expected[j] = encode(in[j], me, 0);
  int dummy = 0;
  MPI_Neighbor_alltoall(send.empty() ? &dummy : send.data(), 1, MPI_INT,
                        received.empty() ? &dummy : received.data(), 1, MPI_INT, c);
  EXPECT_EQ(received, expected);
}

/// The communicator works and means what it should: renumbered (vertex t is played by new rank t)
/// when the reorder was applied, the plain MPI call's reading otherwise (each process keeps its own lists).
void expect_works(Kind kind, MPI_Comm c, bool applied) {
  const int n = size_of(MPI_COMM_WORLD);
  ASSERT_EQ(size_of(c), n);
  const std::vector<int> slot_of = permutation_of(MPI_COMM_WORLD, c);
  if (kind == Kind::comm_reorder || kind == Kind::hilbert) {
    EXPECT_EQ(is_identity(slot_of), !applied);
    int sum = 0, me = rank_of(c);
    MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c);
    EXPECT_EQ(sum, n * (n - 1) / 2);
    return;
  }
  expect_neighbour_exchange_right(c);
  if (kind == Kind::graph) return;  // MPI's own reading: rank t is node t, whoever runs it
  const auto g = scrambled_ring(n);
  std::vector<int> in, out;
  neighbours(c, in, out);
  if (applied) {
    EXPECT_EQ(out, g[rank_of(c)].destinations);
  } else {
    EXPECT_EQ(in_world_ranks(c, out), g[rank_of(MPI_COMM_WORLD)].destinations);
  }
}

/// Every rank holds the same vector.
bool same_on_every_rank(std::vector<int> v) {
  std::vector<int> low(v.size()), high(v.size());
  MPI_Allreduce(v.data(), low.data(), static_cast<int>(v.size()), MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(v.data(), high.data(), static_cast<int>(v.size()), MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return low == high;
}

std::vector<int> as_ints(const std::string& s) { return std::vector<int>(s.begin(), s.end()); }

bool same_text_on_every_rank(const std::string& s) {
  int length = static_cast<int>(s.size()), longest = 0;
  MPI_Allreduce(&length, &longest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  std::vector<int> padded = as_ints(s);
  padded.resize(static_cast<std::size_t>(longest) + 1, 0);
  return same_on_every_rank(padded);
}

// --- Which steps each call reaches, on which rank: the protocol of docs/runtime.md.

const std::set<std::string> kRootOnly = {"graph_size", "graph_buffer", "decide", "report"};
const std::set<std::string> kGatherSteps = {"pack_edges", "graph_counts", "graph_size", "graph_buffer",
                                            "graph_gather"};
const std::set<std::string> kListSteps = {"pack_lists", "exchange_lists"};
const std::set<std::string> kHilbertSteps = {"prepare", "placement", "renumber_group", "renumbered_comm"};
const std::set<std::string> kCommonSteps = {"prepare",         "placement",      "decide",
                                            "verdict_broadcast", "verdict",      "renumber_group",
                                            "renumbered_comm", "create_topology", "report"};

bool reaches(Kind kind, const std::string& step, int rank) {
  const bool known = kCommonSteps.count(step) || kGatherSteps.count(step) || kListSteps.count(step);
  EXPECT_TRUE(known) << "step " << step << " is new: say in this test which calls reach it";
  if (kind == Kind::hilbert) return kHilbertSteps.count(step) > 0;
  if (kRootOnly.count(step) && rank != 0) return false;
  if (kGatherSteps.count(step)) return kind != Kind::graph;  // the graph topology is replicated
  if (kListSteps.count(step)) return kind == Kind::adjacent;
  return known;
}

std::string expected_note(const std::string& step, int rank) {
  const std::string failed = "rank " + std::to_string(rank) + " failed at step " + step;
  if (step == "graph_size") return "the graph has more than 2^31 entries";
  if (step == "decide") return "mapping failed: injected fault at step decide";
#ifndef FAULTS_VIA_PRELOAD
  // Without the preload layer, each process's record travels in an allgather, and the failure is in it.
  if (step == "placement") return "no placement: " + failed;
#endif
  return failed;
}

/// One call with `step` failing on `failing_rank`.
void expect_fall_back_together(const FaultHooks& hooks, Kind kind, int step, int failing_rank) {
  const std::string name = hooks.step_name(step);
  SCOPED_TRACE(std::string(kind_name(kind)) + ", step " + name + " failing on rank " + std::to_string(failing_rank));
  const bool reached = reaches(kind, name, failing_rank);
  hooks.arm(step, failing_rank);
  Made m = make(kind, hooks);
  const int fired = hooks.fired();
  hooks.arm(-1, -1);
  EXPECT_EQ(fired, reached && rank_of(MPI_COMM_WORLD) == failing_rank ? 1 : 0);
  // A failure to write the report changes nothing; any other failure makes every process fall back.
  const bool falls_back = reached && name != "report";
  EXPECT_EQ(m.status, MPI_SUCCESS);
  EXPECT_EQ(m.applied, !falls_back);
  if (m.has_note && falls_back) {
    EXPECT_EQ(m.note, expected_note(name, failing_rank));
  }
  EXPECT_TRUE(same_on_every_rank({m.applied ? 1 : 0}));
  EXPECT_TRUE(same_text_on_every_rank(m.note));
  ASSERT_NE(m.comm, MPI_COMM_NULL);
  expect_works(kind, m.comm, m.applied);
  MPI_Comm_free(&m.comm);
}

void fail_every_step_on(int failing_rank) {
  const FaultHooks hooks = fault_hooks();
  ASSERT_TRUE(hooks.found()) << "not running with a fault-injection variant of rankmap";
  for (const Kind kind : kKinds)
    for (int step = 0; step < hooks.step_count(); ++step) expect_fall_back_together(hooks, kind, step, failing_rank);
}

// Without a fault every call is renumbered here (the scrambled ring gains on the emulated torus), so
// that each fall-back below is a change the fault made.
TEST(FaultInjection, WithoutAFaultEveryCallIsRenumbered) {
  const FaultHooks hooks = fault_hooks();
  ASSERT_TRUE(hooks.found()) << "not running with a fault-injection variant of rankmap";
  for (const Kind kind : kKinds) {
    SCOPED_TRACE(kind_name(kind));
    Made m = make(kind, hooks);
    EXPECT_EQ(m.status, MPI_SUCCESS);
    EXPECT_TRUE(m.applied) << m.note;
    EXPECT_EQ(hooks.fired(), 0);
    ASSERT_NE(m.comm, MPI_COMM_NULL);
    expect_works(kind, m.comm, m.applied);
    MPI_Comm_free(&m.comm);
  }
}

TEST(FaultInjection, EveryStepFailingOnRankZeroFallsBackEverywhere) { fail_every_step_on(0); }

TEST(FaultInjection, EveryStepFailingOnTheLastRankFallsBackEverywhere) {
  fail_every_step_on(size_of(MPI_COMM_WORLD) - 1);
}

}  // namespace
}  // namespace rankmap::mpitest
