// The reorder protocol: agree, gather the graph to rank 0, decide there, broadcast, renumber, build.
#include "engine.hpp"

#include "decide.hpp"
#include "dump.hpp"
#include "agreement.hpp"
#include "comm_tools.hpp"
#include "report.hpp"
#include "requests.hpp"
#include "state.hpp"

#include <rankmap/graph/comm_graph.hpp>

#include <algorithm>
#include <climits>
#include <cstring>
#include <ctime>

namespace rankmap::runtime {

namespace {

constexpr int kRoot = 0;

/// Every process's edges to the root with one MPI_Allgather of counts (so every process knows the
/// total fits an int count) and one MPI_Gatherv: O(P) + O(E) in all. False everywhere when too large.
bool gather_edges(const Request& req, MPI_Comm comm, int rank, int size, std::vector<int>& all) {
  LocalEdges mine = req.edges(rank);
  if (req.replicated()) {
    if (rank == kRoot) all = std::move(mine.triples);
    return true;
  }
  const auto mine_count = static_cast<long long>(mine.triples.size());
  int count = mine_count > INT_MAX ? -1 : static_cast<int>(mine_count);
  std::vector<int> counts(static_cast<std::size_t>(size), 0), displs(counts.size(), 0);
  PMPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  long long total = 0;
  for (int c : counts) total = c < 0 || total > INT_MAX ? LLONG_MAX / 2 : total + c;
  if (total > INT_MAX) return false;
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  if (rank == kRoot) all.resize(static_cast<std::size_t>(total));
  PMPI_Gatherv(mine.triples.data(), count, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT, kRoot, comm);
  return true;
}

/// MPI_Dist_graph_create_adjacent requires every edge to be declared by both of its ends: the
/// multiset of out-edges must equal the multiset of declared in-edges.
std::string inconsistent_edge(const std::vector<int>& triples) {
  std::vector<std::pair<int, int>> out, in;
  for (std::size_t k = 0; k + 2 < triples.size(); k += 3)
    (triples[k + 2] == kInEdge ? in : out).emplace_back(triples[k], triples[k + 1]);
  std::sort(out.begin(), out.end());
  std::sort(in.begin(), in.end());
  if (out == in) return {};
  std::vector<std::pair<int, int>> only_out, only_in;
  std::set_difference(out.begin(), out.end(), in.begin(), in.end(), std::back_inserter(only_out));
  std::set_difference(in.begin(), in.end(), out.begin(), out.end(), std::back_inserter(only_in));
  if (!only_out.empty())
    return "edge " + std::to_string(only_out[0].first) + "->" + std::to_string(only_out[0].second) +
           " is a destination of rank " + std::to_string(only_out[0].first) + " but not a source of rank " +
           std::to_string(only_out[0].second);
  return "edge " + std::to_string(only_in[0].first) + "->" + std::to_string(only_in[0].second) +
         " is a source of rank " + std::to_string(only_in[0].second) + " but not a destination of rank " +
         std::to_string(only_in[0].first);
}

graph::CommGraph graph_of(TaskId n, const std::vector<int>& triples) {
  std::vector<graph::Edge> edges;
  edges.reserve(triples.size() / 3);
  for (std::size_t k = 0; k + 2 < triples.size(); k += 3)
    if (triples[k + 2] != kInEdge) edges.push_back({triples[k], triples[k + 1], static_cast<double>(triples[k + 2])});
  return graph::CommGraph::from_edges(n, std::move(edges));
}

/// The root's verdict, broadcast as fixed-size bytes ahead of the permutation.
struct Header {
  enum Status : std::int32_t { decided = 0, failed = 1, invalid = 2 };
  std::int32_t status = failed;
  std::int32_t applied = 0;
  double before = 0, after = 0, seconds = 0;
  char algorithm[64] = {};
  char objective[16] = {};
  char note[256] = {};
};
static_assert(sizeof(Header) == 368, "docs/runtime.md gives the verdict's size");

template <std::size_t N>
void copy_text(char (&to)[N], const std::string& from) {
  std::strncpy(to, from.c_str(), N - 1);
  to[N - 1] = '\0';
}

Decision decision_of(const Header& h) {
  Decision d;
  d.applied = h.applied != 0;
  d.algorithm = h.algorithm;
  d.objective = h.objective;
  d.note = h.note;
  d.before = h.before;
  d.after = h.after;
  d.seconds = h.seconds;
  return d;
}

Header decide_on_root(const Request& req, const std::vector<int>& edges, TaskId n, const Placement& placement,
                      std::vector<SlotId>& slot_of) {
  Header h;
  try {
    if (req.checks_in_edges()) {
      const std::string problem = inconsistent_edge(edges);
      if (!problem.empty()) {
        h.status = Header::invalid;
        copy_text(h.note, problem);
        return h;
      }
    }
    const graph::CommGraph graph = graph_of(n, edges);
    const Placement used = n < placement.alloc.num_slots() ? placement.first_slots(n) : placement;
    const Config& config = runtime_state().config.config;
    Decision d = decide(graph, used, config);
    if (!config.dump_dir.empty()) {
      try {
        const std::string stem = dump_reorder(config.dump_dir, graph, used, d);
        d.note += (d.note.empty() ? "" : "; ") + std::string("dumped to ") + stem + ".{mtx,coords,map}";
      } catch (const std::exception& e) {
        d.note += (d.note.empty() ? "" : "; ") + std::string(e.what());
      }
    }
    h.status = Header::decided;
    h.applied = d.applied;
    h.before = d.before;
    h.after = d.after;
    h.seconds = d.seconds;
    copy_text(h.algorithm, d.algorithm);
    copy_text(h.objective, d.objective);
    copy_text(h.note, d.note);
    slot_of = std::move(d.slot_of);
  } catch (const std::exception& e) {
    h.status = Header::failed;
    copy_text(h.note, std::string("mapping failed: ") + e.what());
  }
  return h;
}

/// MPI_Bcast from the root, except that the other processes wait for it without spinning: while
/// rank 0 maps, they test a non-blocking broadcast and sleep between tests, leaving the CPU to
/// rank 0 when processes share cores (busy-polling MPIs would otherwise slow the mapping down
/// by the oversubscription factor).
void broadcast_politely(void* data, int bytes, MPI_Comm comm) {
  MPI_Request request;
  PMPI_Ibcast(data, bytes, MPI_BYTE, kRoot, comm, &request);
  int done = 0;
  PMPI_Test(&request, &done, MPI_STATUS_IGNORE);
  while (!done) {
    const timespec pause{0, 50'000};
    nanosleep(&pause, nullptr);
    PMPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

/// Rank 0 decides; the verdict and the permutation then travel together, one broadcast of
/// 368 + 4n bytes. On return every process holds the verdict, and slot_of when it was applied.
Header decide_and_broadcast(const Request& req, MPI_Comm comm, int rank, const std::vector<int>& edges, TaskId n,
                            const Placement& placement, std::vector<SlotId>& slot_of) {
  Header header;
  std::vector<char> verdict(sizeof header + sizeof(SlotId) * static_cast<std::size_t>(n));
  if (rank == kRoot) {
    header = decide_on_root(req, edges, n, placement, slot_of);
    std::memcpy(verdict.data(), &header, sizeof header);
    if (header.applied) std::memcpy(verdict.data() + sizeof header, slot_of.data(), sizeof(SlotId) * slot_of.size());
  }
  broadcast_politely(verdict.data(), static_cast<int>(verdict.size()), comm);
  std::memcpy(&header, verdict.data(), sizeof header);
  if (header.applied) {
    slot_of.resize(static_cast<std::size_t>(n));
    std::memcpy(slot_of.data(), verdict.data() + sizeof header, sizeof(SlotId) * slot_of.size());
  }
  return header;
}

void report(const Request& req, int rank, TaskId n, const Decision& d) {
  const Config& config = runtime_state().config.config;
  if (rank != kRoot || config.report.empty()) return;
  write_report(config.report, format_report_line(req.name(), n, d));
}

std::string append_note(const std::string& note, const std::string& more) {
  return note.empty() ? more : note + "; " + more;
}

void fill(ReorderOutcome* outcome, const Decision& d, std::vector<SlotId> slot_of) {
  if (!outcome) return;
  outcome->applied = d.applied;
  outcome->slot_of = d.applied ? std::move(slot_of) : std::vector<SlotId>();
  outcome->algorithm = d.algorithm;
  outcome->objective = d.objective;
  outcome->note = d.note;
  outcome->before = d.before;
  outcome->after = d.after;
  outcome->seconds = d.seconds;
}

int raise_invalid(MPI_Comm comm, MPI_Comm* result) {
  *result = MPI_COMM_NULL;
  PMPI_Comm_call_errhandler(comm, MPI_ERR_ARG);
  return MPI_ERR_ARG;
}

int fall_back(const Request& req, int rank, TaskId n, std::string why, int reorder, MPI_Comm* result,
              ReorderOutcome* outcome) {
  Decision d;
  d.note = std::move(why);
  report(req, rank, n, d);
  fill(outcome, d, {});
  return req.call_mpi(reorder, result);
}

/// What the engine does with one call that asks for reordering.
enum class Mode { plain, renumber, advise };

/// Every process computes the same mode: an interposed call relies on the settings the init
/// exchange found identical everywhere (a process whose settings differ makes everyone pass through).
Mode mode_of(const Request& req, Origin origin) {
  const RuntimeState& s = runtime_state();
  if (s.config.ok() && s.config.config.disable) return Mode::plain;
  if (origin == Origin::c_api) return Mode::renumber;
  if (s.world_initialised && !s.active()) return Mode::plain;
  if (s.config.config.reorder & req.call_kind()) return Mode::renumber;
  const bool asked = !s.config.config.report.empty() || !s.config.config.dump_dir.empty();
  return asked ? Mode::advise : Mode::plain;
}

/// In advice mode the decision is reported, and the call is MPI's own with the caller's arguments.
int advise(const Request& req, int rank, TaskId n, Decision decision, int reorder, MPI_Comm* result) {
  if (decision.applied) {
    decision.applied = false;
    decision.note = append_note(decision.note, "advice only: RANKMAP_REORDER=" + reorder_setting_for(req.call_kind()) +
                                                   " would renumber this call (safe only for programs that take "
                                                   "their work from the new rank, docs/runtime.md)");
  } else {
    decision.note = append_note(decision.note, "advice only");
  }
  report(req, rank, n, decision);
  return req.call_mpi(reorder, result);
}

int run(const Request& req, Origin origin, MPI_Comm comm, int reorder, MPI_Comm* result, ReorderOutcome* outcome) {
  if (outcome) *outcome = ReorderOutcome{};
  if (comm == MPI_COMM_NULL || !reorder || !result) return req.call_mpi(reorder, result);
  int inter = 0, size = 0, rank = 0;
  PMPI_Comm_test_inter(comm, &inter);
  PMPI_Comm_size(comm, &size);
  if (inter || size == 1) return req.call_mpi(reorder, result);
  const Mode mode = mode_of(req, origin);
  if (mode == Mode::plain) return req.call_mpi(reorder, result);
  PMPI_Comm_rank(comm, &rank);

  LocalCheck check;
  bool prepared = true;
  std::uint64_t args_hash = 0;
  try {
    check = req.check(size);
    if (check.error.empty()) args_hash = req.replicated_hash();
  } catch (const std::exception&) {
    prepared = false;
  }
  const Agreement agreement = agree(comm, check, prepared, args_hash);
  // Advice never changes a call: erroneous arguments are MPI's to report.
  if (agreement.invalid && mode == Mode::advise) return req.call_mpi(reorder, result);
  if (agreement.invalid) {
    // The process that found the problem says what it is; the error handler runs everywhere.
    const std::string message = std::string(req.name()) + ": " + check.error;
    if (!check.error.empty()) log_once(message, message);
    return raise_invalid(comm, result);
  }
  const TaskId n = req.num_tasks(size);
  if (!agreement.fallback.empty()) return fall_back(req, rank, n, agreement.fallback, reorder, result, outcome);
  if (n < 2) return req.call_mpi(reorder, result);

  const PlacementResult placement = placement_of(comm, agreement.gather_placement);
  if (!placement.placement)
    return fall_back(req, rank, n, "no placement: " + placement.failure, reorder, result, outcome);

  std::vector<int> edges;
  if (!gather_edges(req, comm, rank, size, edges))
    return fall_back(req, rank, n, "the graph has more than 2^31 entries", reorder, result, outcome);
  std::vector<SlotId> slot_of;
  const Header header = decide_and_broadcast(req, comm, rank, edges, n, *placement.placement, slot_of);
  if (header.status == Header::invalid && mode == Mode::advise) return req.call_mpi(reorder, result);
  if (header.status == Header::invalid) {
    if (rank == kRoot) log_once(header.note, std::string(req.name()) + ": " + header.note);
    return raise_invalid(comm, result);
  }
  if (header.status == Header::failed) return fall_back(req, rank, n, header.note, reorder, result, outcome);
  const Decision decision = decision_of(header);
  if (mode == Mode::advise) return advise(req, rank, n, decision, reorder, result);
  report(req, rank, n, decision);
  if (!decision.applied) {
    fill(outcome, decision, {});
    return req.call_mpi(0, result);
  }
  const MPI_Comm renumbered = renumbered_communicator(comm, slot_of);
  const int rc = req.build(renumbered, slot_of, rank, result);
  fill(outcome, decision, std::move(slot_of));
  return rc;
}

}  // namespace

// MPI_Comm_create with the reordered group does what MPI_Comm_split(comm, 0, new_rank) would,
// without exchanging keys every process already knows: half the time of a split with both MPIs on
// 64 oversubscribed processes.
MPI_Comm renumbered_communicator(MPI_Comm comm, const std::vector<SlotId>& slot_of) {
  MPI_Group group, reordered;
  PMPI_Comm_group(comm, &group);
  PMPI_Group_incl(group, static_cast<int>(slot_of.size()), slot_of.data(), &reordered);
  MPI_Comm renumbered = MPI_COMM_NULL;
  PMPI_Comm_create(comm, reordered, &renumbered);
  PMPI_Group_free(&reordered);
  PMPI_Group_free(&group);
  // MPICH 4.0 gives a communicator from MPI_Comm_create the default error handler; the plain
  // call's result would inherit comm's, so copy it.
  if (renumbered != MPI_COMM_NULL) {
    MPI_Errhandler handler;
    PMPI_Comm_get_errhandler(comm, &handler);
    PMPI_Comm_set_errhandler(renumbered, handler);
    PMPI_Errhandler_free(&handler);
  }
  return renumbered;
}

int dist_graph_create_adjacent(Origin origin, MPI_Comm comm, int indegree, const int sources[],
                               const int sourceweights[], int outdegree, const int destinations[],
                               const int destweights[], MPI_Info info, int reorder, MPI_Comm* newcomm,
                               ReorderOutcome* outcome) {
  const AdjacentRequest req(comm, indegree, sources, sourceweights, outdegree, destinations, destweights, info);
  return run(req, origin, comm, reorder, newcomm, outcome);
}

int dist_graph_create(Origin origin, MPI_Comm comm, int n, const int sources[], const int degrees[],
                      const int destinations[], const int weights[], MPI_Info info, int reorder, MPI_Comm* newcomm,
                      ReorderOutcome* outcome) {
  const DistGraphRequest req(comm, n, sources, degrees, destinations, weights, info);
  return run(req, origin, comm, reorder, newcomm, outcome);
}

int cart_create(Origin origin, MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                MPI_Comm* newcomm, ReorderOutcome* outcome) {
  const CartRequest req(comm, ndims, dims, periods);
  return run(req, origin, comm, reorder, newcomm, outcome);
}

int graph_create(Origin origin, MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                 MPI_Comm* newcomm, ReorderOutcome* outcome) {
  const GraphRequest req(comm, nnodes, index, edges);
  return run(req, origin, comm, reorder, newcomm, outcome);
}

int comm_reorder(MPI_Comm comm, int outdegree, const int destinations[], const int weights[], MPI_Comm* newcomm,
                 ReorderOutcome* outcome) {
  const OutEdgesRequest req(comm, outdegree, destinations, weights);
  return run(req, Origin::c_api, comm, 1, newcomm, outcome);
}

}  // namespace rankmap::runtime
