// The traffic profiler: counting what the interposed calls send, and gathering it at MPI_Finalize.
#include "profiler.hpp"

#include "comm_directory.hpp"
#include "profile_files.hpp"
#include "report.hpp"
#include "state.hpp"
#include "step_phases.hpp"

#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace rankmap::runtime::profiler {

namespace detail {
constinit std::atomic<bool> on{false};
constinit PhaseRule::Kind phase_kind = PhaseRule::Kind::none;
constinit std::atomic<int> clockless_phase{1};
constinit std::atomic<bool> steps_on{false};
constinit StepLog* unlocked_steps = nullptr;
constinit std::atomic<unsigned> types_freed{0};
constinit int world_size = 0;
constinit unsigned tag_ub = 0;
// The epoch ~0 matches no types_freed a job reaches: no type has been sized yet.
__thread ThreadState thread_state __attribute__((tls_model("initial-exec"))) = {MPI_DATATYPE_NULL, ~0u, 0, nullptr};
}  // namespace detail

namespace {

constexpr int kRoot = 0;
/// Under steps, distinct job-wide steps beyond this many join the largest phase: a program whose
/// processes drift apart would otherwise write a file per step.
constexpr int kMaxStepPhases = 64;

struct Persistent {
  int world_dest = -1;
  std::uint64_t bytes = 0;
};

/// What outlives the hot path: the counters, the persistent sends, the time origin.
struct Profiler {
  ProcessTraffic traffic;
  std::chrono::steady_clock::time_point start;
  std::atomic<bool> incomplete{false};
  std::mutex persistent_mutex;
  std::unordered_map<MPI_Request, Persistent> persistent;
  /// A step is the process's, whichever thread sends or completes; locked unless recorded without
  /// a lock (detail::unlocked_steps).
  std::mutex steps_mutex;
  StepLog steps;
};

Profiler& state() {
  static Profiler p;
  return p;
}

/// The window length of time:SECONDS phases, written at MPI_Init.
constinit double phase_seconds = 0;

/// Runs a recording step; a failure (out of memory) loses that count, never the program.
template <typename Body>
void record(Body&& body) noexcept {
  try {
    body();
  } catch (...) {
    detail::mark_incomplete();
  }
}

using detail::add;
using detail::world_rank;

std::unique_lock<std::mutex> lock_steps(Profiler& p) {
  return detail::unlocked_steps ? std::unique_lock<std::mutex>() : std::unique_lock(p.steps_mutex);
}

void end_step_now() {
  Profiler& p = state();
  const auto lock = lock_steps(p);
  p.steps.complete();
}

// --- Gathering at MPI_Finalize. Every step is a collective every process makes, whatever went
// wrong locally, so that a failure on one process cannot leave the others waiting.

struct EdgeRecord {
  std::int32_t phase;
  std::int32_t destination;
  std::uint64_t bytes;
  std::uint64_t messages;
};

struct CollectiveRecord {
  std::int32_t op;
  std::int32_t comm_size;
  std::uint64_t calls;
  std::uint64_t bytes;
};

struct HostRecord {
  char name[MPI_MAX_PROCESSOR_NAME + 1];
};

/// Gathers every process's records to the root in one MPI_Gatherv of bytes. Returns, on every
/// process, whether it happened: not when the total exceeds an int count or the root cannot hold it.
template <typename T>
bool gather_to_root(const std::vector<T>& mine, std::vector<T>& all, std::vector<int>& counts, MPI_Comm comm) {
  int size = 0, rank = 0;
  PMPI_Comm_size(comm, &size);
  PMPI_Comm_rank(comm, &rank);
  const long long bytes = static_cast<long long>(mine.size() * sizeof(T));
  int mine_bytes = bytes > INT_MAX ? -1 : static_cast<int>(bytes);
  counts.assign(static_cast<std::size_t>(size), 0);
  PMPI_Allgather(&mine_bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  std::vector<int> displs(counts.size(), 0);
  long long total = 0;
  for (int r = 0; r < size; ++r) {
    if (counts[r] < 0 || total > INT_MAX)
      total = LLONG_MAX / 2;
    else
      displs[r] = static_cast<int>(total), total += counts[r];
  }
  if (total > INT_MAX) return false;
  int ready = 1;
  if (rank == kRoot) {
    try {
      all.resize(static_cast<std::size_t>(total) / sizeof(T));
    } catch (...) {
      ready = 0;
    }
  }
  PMPI_Bcast(&ready, 1, MPI_INT, kRoot, comm);
  if (!ready) return false;
  PMPI_Gatherv(mine.data(), mine_bytes, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, kRoot, comm);
  for (int& c : counts) c /= static_cast<int>(sizeof(T));
  return true;
}

/// Under steps: the job's phases, agreed from every process's steps. Collective; a process that
/// cannot take part (out of memory) makes every process put all its traffic in phase 1.
StepPhases agree_on_step_phases(const StepLog& log, int rank, int& incomplete) {
  unsigned long long steps = log.recorded().size();
  PMPI_Allreduce(MPI_IN_PLACE, &steps, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  std::vector<std::uint64_t> signatures;
  int ready = 1;
  try {
    signatures.assign(steps, 0);
    for (std::size_t k = 0; k < log.recorded().size(); ++k)
      signatures[k] = step_signature(rank, log.signature(log.recorded()[k]));
  } catch (...) {
    ready = 0;
  }
  PMPI_Allreduce(MPI_IN_PLACE, &ready, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!ready) {
    incomplete = 1;
    return {};
  }
  if (steps > 0)  // every process agrees on it: no process calls a collective the others skip
    PMPI_Allreduce(MPI_IN_PLACE, signatures.data(), static_cast<int>(steps), MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return phases_of_steps(signatures, kMaxStepPhases);
}

std::vector<EdgeRecord> local_edges(const StepPhases* step_phases) {
  std::vector<EdgeRecord> out;
  for (const EdgeCount& e : step_phases ? phased_edges(state().steps, *step_phases) : state().traffic.edges())
    out.push_back({e.phase, e.peer, e.traffic.bytes, e.traffic.messages});
  return out;
}

/// The number of phases so far on this process (the job's is the maximum).
int phases_now(const StepPhases* step_phases) {
  if (step_phases) return step_phases->phases;
  const int phase = detail::clockless_phase.load(std::memory_order_relaxed);
  return phase > 0 ? phase : detail::time_window_now();
}

std::vector<CollectiveRecord> local_collectives() {
  std::vector<CollectiveRecord> out;
  for (const CollectiveCount& c : state().traffic.collectives())
    out.push_back({static_cast<std::int32_t>(c.op), c.comm_size, c.calls, c.bytes});
  return out;
}

/// This process's host name when it is the first process of its node, so that rank 0 learns one
/// name per node.
std::vector<HostRecord> local_host(const std::optional<Placement>& placement, int rank) {
  if (!placement) return {};
  const topology::Allocation& alloc = placement->alloc;
  if (alloc.slots_of_node(alloc.node_index_of_slot(rank))[0] != rank) return {};
  HostRecord r{};
  int length = 0;
  PMPI_Get_processor_name(r.name, &length);
  return {r};
}

GatheredProfile assemble(int processes, int phases, const std::vector<EdgeRecord>& edges,
                         const std::vector<int>& edge_counts, const std::vector<CollectiveRecord>& collectives,
                         const std::vector<HostRecord>& hosts) {
  const RuntimeState& s = runtime_state();
  GatheredProfile p;
  p.processes = processes;
  p.phases = phases;
  p.phase_origin = phase_origin_of(detail::phase_kind);
  std::size_t k = 0;
  for (int source = 0; source < processes; ++source)
    for (int i = 0; i < edge_counts[source]; ++i, ++k)
      p.sends.push_back({source, edges[k].phase, edges[k].destination, {edges[k].bytes, edges[k].messages}});
  std::unordered_map<std::uint64_t, std::size_t> index;
  for (const CollectiveRecord& c : collectives) {
    const std::uint64_t key = (static_cast<std::uint64_t>(c.op) << 32) | static_cast<std::uint32_t>(c.comm_size);
    const auto [it, fresh] = index.try_emplace(key, p.collectives.size());
    if (fresh) p.collectives.push_back({static_cast<CollectiveOp>(c.op), c.comm_size, 0, 0});
    p.collectives[it->second].calls += c.calls;
    p.collectives[it->second].bytes += c.bytes;
  }
  p.placement = s.world.placement;
  p.placement_failure = s.world.failure;
  if (p.placement && static_cast<int>(hosts.size()) == p.placement->alloc.num_nodes())
    for (const HostRecord& h : hosts) p.node_hosts.emplace_back(h.name);
  else
    p.placement.reset();
  return p;
}

void report_line(const std::string& line) {
  const std::string& destination = runtime_state().config.config.report;
  write_report(destination.empty() ? "stderr" : destination, "rankmap: " + line);
}

void gather_and_write() {
  int rank = 0, size = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<EdgeRecord> edges;
  std::vector<CollectiveRecord> collectives;
  std::vector<HostRecord> host;
  int flags[2] = {0, state().incomplete ? 1 : 0};
  std::optional<StepPhases> step_phases;
  if (detail::phase_kind == PhaseRule::Kind::steps) {
    record(end_step_now);
    step_phases = agree_on_step_phases(state().steps, rank, flags[1]);
  }
  flags[0] = phases_now(step_phases ? &*step_phases : nullptr);
  try {
    edges = local_edges(step_phases ? &*step_phases : nullptr);
    collectives = local_collectives();
    host = local_host(runtime_state().world.placement, rank);
  } catch (...) {
    edges.clear(), collectives.clear(), host.clear();
    flags[1] = 1;
  }
  PMPI_Allreduce(MPI_IN_PLACE, flags, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  std::vector<EdgeRecord> all_edges;
  std::vector<CollectiveRecord> all_collectives;
  std::vector<HostRecord> all_hosts;
  std::vector<int> edge_counts, other_counts;
  const bool gathered = gather_to_root(edges, all_edges, edge_counts, MPI_COMM_WORLD) &&
                        gather_to_root(collectives, all_collectives, other_counts, MPI_COMM_WORLD) &&
                        gather_to_root(host, all_hosts, other_counts, MPI_COMM_WORLD);
  if (rank != kRoot) return;
  const std::string& prefix = runtime_state().config.config.profile_prefix;
  if (!gathered) {
    report_line("RANKMAP_PROFILE: the profile is too large to gather to rank 0; nothing written to " + prefix);
    return;
  }
  try {
    const GatheredProfile profile = assemble(size, flags[0], all_edges, edge_counts, all_collectives, all_hosts);
    std::string line = write_profile(prefix, profile);
    if (step_phases)
      line += "; " + std::to_string(step_phases->phases) + " phases found in " +
              (step_phases->phase.size() == StepLog::kRecordedSteps ? "the first " : "") +
              std::to_string(step_phases->phase.size()) + " steps";
    if (flags[1]) line += "; incomplete: a process ran out of memory while counting";
    report_line(line);
  } catch (const std::exception& e) {
    report_line(std::string("RANKMAP_PROFILE: ") + e.what());
  }
}

}  // namespace

void start() noexcept {
  const RuntimeState& s = runtime_state();
  if (!s.active() || s.config.config.profile_prefix.empty()) return;
  Profiler& p = state();
  detail::phase_kind = s.config.config.profile_phases.kind;
  if (detail::phase_kind == PhaseRule::Kind::time || detail::phase_kind == PhaseRule::Kind::steps)
    detail::clockless_phase = -1;
  phase_seconds = s.config.config.profile_phases.seconds;
  p.start = std::chrono::steady_clock::now();
  PMPI_Comm_size(MPI_COMM_WORLD, &detail::world_size);
  int* ub = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &found);
  detail::tag_ub = found && ub && *ub >= 0 ? static_cast<unsigned>(*ub) : 32767;  // the standard's minimum
  // Whether the key exists is the same everywhere in practice; if MPI refused it on some process
  // only, its counts stay empty but it still takes part in every collective of finish().
  if (!comm_directory::start()) p.incomplete = true;
  detail::on = true;
  detail::steps_on = detail::phase_kind == PhaseRule::Kind::steps;
  // Below MPI_THREAD_MULTIPLE no two threads are in MPI at once, so the step log needs no lock.
  int thread_level = MPI_THREAD_MULTIPLE;
  PMPI_Query_thread(&thread_level);
  if (detail::steps_on && thread_level != MPI_THREAD_MULTIPLE) detail::unlocked_steps = &p.steps;
}


void persistent_send(MPI_Request request, MPI_Comm comm, int dest, MPI_Count count, MPI_Datatype type) noexcept {
  record([&] {
    const Persistent entry{world_rank(comm, dest), bytes_of(count, type)};
    Profiler& p = state();
    std::lock_guard lock(p.persistent_mutex);
    p.persistent[request] = entry;
  });
}

void started(int n, const MPI_Request requests[]) noexcept {
  record([&] {
    Profiler& p = state();
    std::lock_guard lock(p.persistent_mutex);
    if (p.persistent.empty()) return;
    for (int i = 0; i < n; ++i)
      if (const auto it = p.persistent.find(requests[i]); it != p.persistent.end())
        add(it->second.world_dest, it->second.bytes);
  });
}

void freed(MPI_Request request) noexcept {
  record([&] {
    Profiler& p = state();
    std::lock_guard lock(p.persistent_mutex);
    p.persistent.erase(request);
  });
}

void neighbours_uniform(MPI_Comm comm, MPI_Count count, MPI_Datatype type) noexcept {
  record([&] {
    const std::uint64_t bytes = bytes_of(count, type);
    for (const int w : comm_directory::out_neighbours(comm)) add(w, bytes);
  });
}

void neighbours_counts(MPI_Comm comm, const int counts[], MPI_Datatype type) noexcept {
  record([&] {
    const auto out = comm_directory::out_neighbours(comm);
    for (std::size_t i = 0; i < out.size(); ++i) add(out[i], bytes_of(counts[i], type));
  });
}

void neighbours_typed(MPI_Comm comm, const int counts[], const MPI_Datatype types[]) noexcept {
  record([&] {
    const auto out = comm_directory::out_neighbours(comm);
    for (std::size_t i = 0; i < out.size(); ++i) add(out[i], bytes_of(counts[i], types[i]));
  });
}

int out_degree(MPI_Comm comm) noexcept {
  try {
    return static_cast<int>(comm_directory::out_neighbours(comm).size());
  } catch (...) {
    state().incomplete = true;
    return 0;
  }
}

void collective(CollectiveOp op, MPI_Comm comm, std::uint64_t bytes) noexcept {
  record([&] {
    int size = 0;
    PMPI_Comm_size(comm, &size);
    detail::thread_counts().add_collective(op, size, bytes);
  });
}

void pcontrol() noexcept {
  if (detail::phase_kind == PhaseRule::Kind::pcontrol) detail::clockless_phase.fetch_add(1, std::memory_order_relaxed);
}

namespace detail {

int time_window_now() {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - state().start).count();
  return 1 + static_cast<int>(std::min(elapsed / phase_seconds, double(INT_MAX - 1)));
}

void add_unclocked(int world_dest, std::uint64_t bytes) {
  if (phase_kind != PhaseRule::Kind::steps) {
    thread_counts().add_send(time_window_now(), world_dest, bytes);
    return;
  }
  thread_counts();  // registered, so that the fast path (counted_in_advance) can serve the next send
  Profiler& p = state();
  const auto lock = lock_steps(p);
  p.steps.add_send(world_dest, bytes);
}

void end_step() noexcept { record(end_step_now); }

ThreadTraffic& register_thread() {
  thread_state.counts = &state().traffic.add_thread();
  return *thread_state.counts;
}

/// A type other than the last one: sized and remembered. MPI_DATATYPE_NULL, which MPI would not
/// size, counts 0 bytes (as the cache's initial state does).
std::uint64_t bytes_elsewhere(MPI_Count count, MPI_Datatype type, unsigned epoch) {
  if (type == MPI_DATATYPE_NULL) return 0;
  MPI_Count size = 0;
  PMPI_Type_size_x(type, &size);
  const std::uint64_t item = size > 0 && size != MPI_UNDEFINED ? static_cast<std::uint64_t>(size) : 0;
  thread_state.last_type = type;
  thread_state.last_epoch = epoch;
  thread_state.last_size = item;
  return static_cast<std::uint64_t>(count) * item;
}

int world_rank_elsewhere(MPI_Comm comm, int rank) { return comm_directory::world_rank(comm, rank); }

void mark_incomplete() noexcept { state().incomplete = true; }

}  // namespace detail

void finish() noexcept {
  if (!enabled()) return;
  detail::on = false;
  detail::steps_on = false;
  detail::unlocked_steps = nullptr;
  try {
    gather_and_write();
  } catch (...) {
    // Only an allocation failure on the root after the gathers gets here; the others are done.
  }
}

}  // namespace rankmap::runtime::profiler
