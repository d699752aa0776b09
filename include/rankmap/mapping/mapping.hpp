// The one interface every mapping algorithm implements, and the registry that names them.
#pragma once

#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/topology/allocation.hpp>
#include <rankmap/topology/routing.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::mapping {

/// slot_of[task]: a permutation of 0..P-1; the identity is the launcher's order.
using Mapping = std::vector<SlotId>;

enum class Objective { mcl, hop_bytes };

/// Parses `mcl` or `hopbytes`; throws InputError otherwise.
Objective parse_objective(std::string_view text);
std::string_view to_string(Objective objective);

/// The maximum channel loads under dimension-ordered routing that auto's routing hedge measured
/// (acceptance.hpp), so that the do-no-harm test after it need not route both mappings again.
struct DorLoads {
  double launcher = 0;  ///< of the launcher's order (the identity)
  double chosen = 0;    ///< of the mapping the chain returned
};

/// The objective values that a portfolio such as auto measured, so that its caller need not route
/// the flows again (at 16,384 tasks each routing is a good part of the runtime's budget).
struct MeasuredObjectives {
  /// Of the launcher's order (the identity). NaN when the budget ran out while it was being
  /// measured: on a dense graph that alone can take many budgets, and the result is then that order.
  double launcher = 0;
  double chosen = 0;  ///< of the mapping the chain returned (NaN with the launcher's)
};

/// What a portfolio such as auto chose, for reports and `rankmap map`.
struct Choice {
  std::string chosen;  ///< the winning member, e.g. `split+refine`
  std::string detail;  ///< one line: every member's objective value
  /// Set by a hedging auto that is the chain's last stage (run_chain clears it before every stage,
  /// so that it always describes the chain's result).
  std::optional<DorLoads> dor_loads;
  /// Set, like dor_loads, by an auto that is the chain's last stage.
  std::optional<MeasuredObjectives> objectives;
};

struct MapOptions {
  Objective objective = Objective::mcl;
  topology::RoutingSpec routing;  ///< the routing model MCL is measured under
  /// The user named `routing`. When not, and the objective is MCL, `auto` keeps no candidate that
  /// raises the MCL under dimension-ordered routing above the launcher's order's (acceptance.hpp).
  bool routing_stated = false;
  double time_budget_ms = 200;    ///< how long a search may run; fast algorithms ignore it
  std::uint64_t seed = 1;
  int threads = 1;
  std::string parameter;          ///< text after ':' in the name, e.g. `TEDCBA` in `dimorder:TEDCBA`
  const Mapping* initial = nullptr;  ///< the previous stage's result in a chain such as `mahd+refine`
  /// Optional: the graph's communication split into phases that run one after another, each with
  /// the graph's task count (together they should make up the graph). Under MCL the objective is
  /// then the sum of the phases' MCLs (metrics::phased_max_channel_load): refine searches on it, and
  /// mahd, emahd and dimorder-best pick their candidates by it. The other algorithms use the graph.
  std::span<const graph::CommGraph> phases;
  /// Optional, and only read when `phases` is empty: phases the program was seen to run in but did
  /// not mark itself (RANKMAP_PROFILE_PHASES=steps or time). The objective stays the whole graph, and
  /// the routing hedge sums the static routing's load over these phases instead (acceptance.hpp).
  /// Found phases can split one exchange that overlaps on a real network: a halo of one blocking
  /// MPI_Sendrecv per direction becomes a phase per direction, and summed over them the objective
  /// saw no gain where the whole graph's MCL halves; as a hedge they still refuse what made BT's
  /// sweeps slower (docs/runtime.md, "Phases the program did not mark").
  std::span<const graph::CommGraph> hedge_phases;
  std::function<void(double done_fraction)> progress;  ///< optional, called from the calling thread
  /// Optional: where an algorithm that chooses among candidates says which one it kept and why.
  Choice* choice = nullptr;
};


/// Every algorithm has this signature. It may assume graph.num_tasks() == alloc.num_slots()
/// (drivers truncate the allocation first) and must return a permutation of the slots.
/// It throws InputError for a parameter it does not understand.
using MapFunction = Mapping (*)(const graph::CommGraph&, const topology::Allocation&, const MapOptions&);

struct AlgorithmInfo {
  std::string_view name;
  MapFunction map;
  std::string_view summary;
};

/// The algorithms of the core library (those the runtime may run).
std::span<const AlgorithmInfo> core_algorithms();

/// The stages of a chain such as `mahd+refine:5000`, parameters kept: {`mahd`, `refine:5000`}. The
/// one place a chain is cut, for the runtime's settings, the tool and run_chain alike.
std::vector<std::string_view> chain_stages(std::string_view chain);

/// Looks `name` (without any `:parameter`) up in `algorithms`; nullptr when absent.
const AlgorithmInfo* find_algorithm(std::span<const AlgorithmInfo> algorithms, std::string_view name);

/// Runs a chain such as `mahd+refine` or `dimorder:TEDCBA`, each stage starting from the
/// previous stage's result, all within options.time_budget_ms. Throws InputError naming an
/// unknown algorithm or a phase whose task count is not the graph's, and std::logic_error if a
/// stage returns something that is not a permutation.
Mapping run_chain(std::string_view chain, std::span<const AlgorithmInfo> algorithms, const graph::CommGraph& graph,
                  const topology::Allocation& alloc, const MapOptions& options);

/// True if `m` is a permutation of 0..m.size()-1.
bool is_permutation(std::span<const SlotId> m);
Mapping identity_mapping(SlotId n);
/// True if `m` is identity_mapping(m.size()): every task keeps the launcher's slot.
bool is_identity(std::span<const SlotId> m);
/// task_of[slot] for a permutation slot_of.
std::vector<TaskId> inverse(std::span<const SlotId> slot_of);

/// A wall-clock deadline for searches with a time budget.
class Deadline {
 public:
  explicit Deadline(double budget_ms)
      : end_(std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                    std::chrono::duration<double, std::milli>(budget_ms))) {}
  bool passed() const { return std::chrono::steady_clock::now() >= end_; }
  double remaining_ms() const {
    return std::chrono::duration<double, std::milli>(end_ - std::chrono::steady_clock::now()).count();
  }

 private:
  std::chrono::steady_clock::time_point end_;
};

}  // namespace rankmap::mapping
