// The reorder protocol: agree, gather the graph to rank 0, decide there, broadcast, renumber, build.
// After the agreement, a failure on one process is carried by a StepGuard to the next settle (one
// MPI_Allreduce), so that every process falls back to the plain MPI call together.
#include "engine.hpp"

#include "agreement.hpp"
#include "comm_tools.hpp"
#include "dump.hpp"
#include "graph_gather.hpp"
#include "list_exchange.hpp"
#include "placement_step.hpp"
#include "reorder_summary.hpp"
#include "report.hpp"
#include "requests.hpp"
#include "state.hpp"
#include "step_guard.hpp"
#include "verdict.hpp"

#include <rankmap/mapping/mapping.hpp>

#include <stdexcept>

namespace rankmap::runtime {

namespace {

constexpr int kRoot = 0;

/// Runs `work`, ignoring any exception: for what must never change the collective path (reports,
/// notes, outcomes).
template <typename Work>
void quietly(Work&& work) noexcept {
  try {
    work();
  } catch (...) {
  }
}

/// What the engine does with one call that asks for reordering.
enum class Mode { plain, renumber, advise };

/// One call, as every step sees it.
struct Call {
  const Request& req;
  MPI_Comm comm;
  int rank;
  int size;
  int reorder;
  MPI_Comm* result;
  ReorderOutcome& outcome;
  TaskId n = 0;
};

/// The buffers of the collectives after the agreement whose size is known before it, allocated
/// while preparing, so that no process fails to allocate one after the agreement.
struct Buffers {
  std::vector<ProcessRecord> records;  ///< without a world placement: one per process of comm
  GraphGather graph;                   ///< rank 0's counts
  std::vector<char> verdict;           ///< the verdict and the permutation, as broadcast
  std::vector<SlotId> slot_of;         ///< the permutation, once read
};

/// Step 1: this process's arguments and buffers, before any communication.
struct Prepared {
  LocalCheck check;
  std::uint64_t args_hash = 0;
  Buffers buffers;
  bool ok = true;
};

Prepared prepare(const Request& req, int rank, int size) noexcept {
  Prepared p;
  try {
    fault_point(Step::prepare);
    p.check = req.check(size);
    if (!p.check.error.empty()) return p;
    p.args_hash = req.replicated_hash();
    const TaskId n = req.num_tasks(size);
    p.buffers.records = record_buffer(size);
    if (!req.replicated()) p.buffers.graph = prepare_graph_gather(rank, size);
    p.buffers.verdict.resize(verdict_bytes(n));
    p.buffers.slot_of.resize(static_cast<std::size_t>(n));
  } catch (...) {
    p.ok = false;
  }
  return p;
}

/// Every process computes the same mode: an interposed call relies on the settings the init
/// exchange found identical everywhere (a process whose settings differ makes everyone pass through).
Mode mode_of(const Request& req, Origin origin) noexcept {
  try {
    const RuntimeState& s = runtime_state();
    if (s.config.ok() && s.config.config.disable) return Mode::plain;
    if (origin == Origin::c_api) return Mode::renumber;
    if (s.world_initialised && !s.active()) return Mode::plain;
    if (s.config.config.reorder & req.call_kind()) return Mode::renumber;
    const bool asked = !s.config.config.report.empty() || !s.config.config.dump_dir.empty();
    return asked ? Mode::advise : Mode::plain;
  } catch (...) {
    // Without settings an explicit call still takes part in the agreement, which then falls back.
    return origin == Origin::c_api ? Mode::renumber : Mode::plain;
  }
}

std::string append_note(const std::string& note, const std::string& more) {
  return note.empty() ? more : note + "; " + more;
}

void report(const Call& c, const Decision& d) {
  const Config& config = runtime_state().config.config;
  if (c.rank != kRoot || config.report.empty()) return;
  write_report(config.report, format_report_line(c.req.name(), c.n, d));
}

/// Rank 0 reports the decision; a failure to write it changes nothing else.
void report_decision(const Call& c, const Decision& d) noexcept {
  quietly([&] {
    if (c.rank == kRoot) fault_point(Step::report);
    report(c, d);
  });
}

void fill(ReorderOutcome& outcome, const Decision& d, std::vector<SlotId> slot_of) {
  detail::copy_summary(outcome, d);
  outcome.slot_of = d.applied ? std::move(slot_of) : std::vector<SlotId>();
}

int raise_invalid(MPI_Comm comm, MPI_Comm* result) noexcept {
  *result = MPI_COMM_NULL;
  PMPI_Comm_call_errhandler(comm, MPI_ERR_ARG);
  return MPI_ERR_ARG;
}

/// The plain MPI call with the caller's arguments on every process; `note()` says why.
template <typename Note>
int fall_back(Call& c, Note&& note) noexcept {
  quietly([&] {
    Decision d;
    d.note = note();
    report(c, d);
    fill(c.outcome, d, {});
  });
  return c.req.call_mpi(c.reorder, c.result);
}

int fall_back_settled(Call& c, const StepGuard& g, StepFailure failure) noexcept {
  return fall_back(c, [&] { return g.note(failure); });
}

/// Some process's arguments are erroneous: the process that found the problem says what it is, and
/// the error handler runs everywhere. Advice never changes a call: the errors are MPI's to report.
int invalid_arguments(Call& c, Mode mode, const std::string& error) noexcept {
  if (mode == Mode::advise) return c.req.call_mpi(c.reorder, c.result);
  quietly([&] {
    const std::string message = std::string(c.req.name()) + ": " + error;
    if (!error.empty()) log_once(message, message);
  });
  return raise_invalid(c.comm, c.result);
}

/// In advice mode the decision is reported, and the call is MPI's own with the caller's arguments.
int advise(Call& c, Decision decision) noexcept {
  quietly([&] {
    if (decision.applied) {
      decision.applied = false;
      decision.note = append_note(decision.note, "advice only: RANKMAP_REORDER=" +
                                                     reorder_setting_for(c.req.call_kind()) +
                                                     " would renumber this call (safe only for programs that take "
                                                     "their work from the new rank, docs/runtime.md)");
    } else {
      decision.note = append_note(decision.note, "advice only");
    }
  });
  report_decision(c, decision);
  return c.req.call_mpi(c.reorder, c.result);
}

Decision decide_and_dump(const graph::CommGraph& graph, const Placement& used) {
  const Config& config = runtime_state().config.config;
  Decision d = decide(graph, used, config);
  if (config.dump_dir.empty()) return d;
  try {
    const std::string stem = dump_reorder(config.dump_dir, graph, used, d);
    d.note = append_note(d.note, "dumped to " + stem + ".{mtx,coords,map}");
  } catch (const std::exception& e) {
    d.note = append_note(d.note, e.what());
  }
  return d;
}

/// Step 5 on rank 0: the verdict, and the permutation in `slot_of` when it is applied.
Verdict decide_on_root(const Call& c, const std::vector<int>& gathered, const Placement& placement,
                       std::vector<SlotId>& slot_of) noexcept {
  try {
    fault_point(Step::decide);
    const std::vector<int> own = c.req.replicated() ? c.req.edges(kRoot).triples : std::vector<int>();
    const std::vector<int>& edges = c.req.replicated() ? own : gathered;
    if (c.req.checks_in_edges()) {
      const std::string problem = inconsistent_edge(edges);
      if (!problem.empty()) return verdict_of(Verdict::invalid, problem);
    }
    const Placement used = c.n < placement.alloc.num_slots() ? placement.first_slots(c.n) : placement;
    Decision d = decide_and_dump(graph_of(c.n, edges), used);
    slot_of = std::move(d.slot_of);
    return verdict_of(d);
  } catch (const std::exception& e) {
    try {
      return verdict_of(Verdict::failed, std::string("mapping failed: ") + e.what());
    } catch (...) {
    }
  } catch (...) {
  }
  return verdict_of(Verdict::failed, "mapping failed");
}

/// MPI_Bcast from the root, except that the other processes wait for it without spinning while
/// rank 0 maps.
int broadcast_politely(void* data, int bytes, MPI_Comm comm) noexcept {
  MPI_Request request;
  const int rc = PMPI_Ibcast(data, bytes, MPI_BYTE, kRoot, comm, &request);
  return rc == MPI_SUCCESS ? wait_politely(&request) : rc;
}

/// Steps 5 and 6: rank 0 decides (or, having failed, says so); the verdict and the permutation then
/// travel together, one broadcast of 368 + 4n bytes, into buffers every process already holds.
Verdict decide_and_broadcast(const Call& c, const PlacementResult& placed, Buffers& b, StepGuard& g) {
  if (c.rank == kRoot) {
    std::vector<SlotId> slot_of;
    const Verdict v = g.ok() ? decide_on_root(c, b.graph.all, *placed.placement, slot_of)
                             : verdict_of(Verdict::failed, "rank 0 failed");
    write_verdict(v, slot_of, b.verdict);
  }
  g.mpi(Step::verdict_broadcast, broadcast_politely(b.verdict.data(), static_cast<int>(b.verdict.size()), c.comm));
  return read_verdict(b.verdict, b.slot_of);
}

/// What building the renumbered topology needs, prepared before the settle that precedes it.
struct Renumbering {
  MPI_Group group = MPI_GROUP_NULL;
  int to = -1, from = -1;  ///< moves_lists(): the ranks of the renumbered communicator to send to, receive from
  std::vector<int> mine, lists;
  ReorderOutcome outcome;  ///< handed to the caller once the topology exists everywhere
  Renumbering() = default;
  Renumbering(const Renumbering&) = delete;
  Renumbering& operator=(const Renumbering&) = delete;
  ~Renumbering() { free_group(&group); }
};

void prepare_renumbering(const Call& c, const Decision& d, const std::vector<SlotId>& slot_of, Renumbering& r,
                         StepGuard& g) {
  g.local(Step::verdict, [&] { fill(r.outcome, d, slot_of); });
  g.call(Step::renumber_group, [&] { return renumbered_group(c.comm, slot_of, &r.group); });
  if (!c.req.moves_lists()) return;
  // Old rank r holds vertex r's lists, and vertex r is rank r of the renumbered communicator; this
  // process, new rank t, receives vertex t's lists from old rank t, now rank task_of[t].
  g.local(Step::pack_lists, [&] {
    const std::vector<TaskId> task_of = mapping::inverse(slot_of);
    r.to = c.rank;
    r.from = task_of[task_of[c.rank]];
    r.mine = c.req.pack_lists();
  });
}

/// Steps 7 to 9: the renumbered communicator, the lists moved to their vertices' new owners, and
/// the MPI call on it; each ends in a settle, and a failure anywhere frees what was built everywhere.
int build_renumbered(Call& c, const Decision& d, Renumbering& r, StepGuard& g) noexcept {
  MPI_Comm renumbered = MPI_COMM_NULL;
  g.mpi(Step::renumbered_comm, create_renumbered(c.comm, r.group, &renumbered));
  if (const auto failure = g.settle()) {
    free_comm(&renumbered);
    return fall_back_settled(c, g, *failure);
  }
  if (c.req.moves_lists()) {
    exchange_lists(renumbered, r.to, r.from, r.mine, r.lists, g);
    g.local(Step::exchange_lists, [&] {
      if (!c.req.lists_valid(r.lists)) throw std::runtime_error("received malformed lists");
    });
    if (const auto failure = g.settle()) {
      free_comm(&renumbered);
      return fall_back_settled(c, g, *failure);
    }
  }
  const int rc = c.req.build(renumbered, r.lists, c.result);
  g.mpi(Step::create_topology, rc);
  if (const auto failure = g.settle()) {
    if (rc == MPI_SUCCESS) free_comm(c.result);
    return fall_back_settled(c, g, *failure);
  }
  report_decision(c, d);
  c.outcome = std::move(r.outcome);
  return rc;
}

/// Every process holds the verdict, and acts on it alike.
int act_on_verdict(Call& c, Mode mode, const Verdict& v, Decision d, Renumbering& r, StepGuard& g) noexcept {
  if (v.status == Verdict::invalid) {
    if (mode == Mode::advise) return c.req.call_mpi(c.reorder, c.result);
    quietly([&] {
      if (c.rank == kRoot) log_once(v.note, std::string(c.req.name()) + ": " + v.note);
    });
    return raise_invalid(c.comm, c.result);
  }
  if (v.status == Verdict::failed) return fall_back(c, [&] { return std::string(v.note); });
  if (mode == Mode::advise) return advise(c, std::move(d));
  if (d.applied) return build_renumbered(c, d, r, g);
  report_decision(c, d);
  quietly([&] { fill(c.outcome, d, {}); });
  return c.req.call_mpi(0, c.result);
}

/// Steps 3 to 9, after an agreement that found nothing to stop for. Every local failure up to the
/// verdict is settled twice at most: before the gather of the edges, and once the verdict is read.
int after_agreement(Call& c, Mode mode, bool gather, Buffers& b) noexcept {
  StepGuard g(c.comm, c.rank);
  const PlacementResult placed = place_processes(c.comm, c.rank, gather, b.records, g);
  if (!c.req.replicated()) {
    g.local(Step::pack_edges, [&] { b.graph.mine = c.req.edges(c.rank).triples; });
    gather_counts(c.comm, c.rank, b.graph, g);
    if (const auto failure = g.settle()) return fall_back_settled(c, g, *failure);
    gather_edges(c.comm, b.graph, g);
  }
  const Verdict v = decide_and_broadcast(c, placed, b, g);
  Decision d;
  g.local(Step::verdict, [&] {
    if (v.status == Verdict::decided) d = decision_of(v);
  });
  Renumbering r;
  if (mode == Mode::renumber && v.status == Verdict::decided && v.applied) prepare_renumbering(c, d, b.slot_of, r, g);
  if (const auto failure = g.settle()) return fall_back_settled(c, g, *failure);
  return act_on_verdict(c, mode, v, std::move(d), r, g);
}

int run_steps(const Request& req, Origin origin, MPI_Comm comm, int reorder, MPI_Comm* result,
              ReorderOutcome& outcome) noexcept {
  if (comm == MPI_COMM_NULL || !reorder || !result) return req.call_mpi(reorder, result);
  int inter = 0, size = 0, rank = 0;
  PMPI_Comm_test_inter(comm, &inter);
  PMPI_Comm_size(comm, &size);
  if (inter || size == 1) return req.call_mpi(reorder, result);
  const Mode mode = mode_of(req, origin);
  if (mode == Mode::plain) return req.call_mpi(reorder, result);
  PMPI_Comm_rank(comm, &rank);

  Prepared p = prepare(req, rank, size);
  const Agreement agreement = agree(comm, p.check, p.ok, p.args_hash);
  Call c{req, comm, rank, size, reorder, result, outcome};
  if (agreement.invalid) return invalid_arguments(c, mode, p.check.error);
  c.n = req.num_tasks(size);
  if (agreement.fallback != Agreement::Fallback::none)
    return fall_back(c, [&] { return fallback_note(agreement); });
  if (c.n < 2) return req.call_mpi(reorder, result);
  return after_agreement(c, mode, agreement.gather_placement, p.buffers);
}

/// Every entry point: the outcome is always computed (the caller's, or a local one), so that the
/// test build can observe it.
int run(const Request& req, Origin origin, MPI_Comm comm, int reorder, MPI_Comm* result,
        ReorderOutcome* outcome) noexcept {
  ReorderOutcome own;
  ReorderOutcome& out = outcome ? *outcome : own;
  out = ReorderOutcome{};
  const int rc = run_steps(req, origin, comm, reorder, result, out);
  observe_outcome(out);
  return rc;
}

}  // namespace

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
