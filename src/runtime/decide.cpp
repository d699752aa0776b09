// Choosing, measuring and accepting or refusing a mapping on the root process.
#include "decide.hpp"

#include "intra_node.hpp"
#include "mapping_threads.hpp"
#include "precomputed.hpp"

#include <rankmap/mapping/acceptance.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>
#include <rankmap/topology/routing.hpp>

#include <chrono>
#include <cmath>

namespace rankmap::runtime {

namespace {

class Objective {
 public:
  Objective(const graph::CommGraph& graph, const Placement& placement, const Config& config)
      : graph_(graph), placement_(placement), kind_(config.objective) {
    if (placement.mode == Placement::Mode::nodes_only) name_ = "offnode";
    else if (kind_ == mapping::Objective::mcl) {
      routing_ = topology::shared_routing_model(placement.alloc.network(), config.routing);
      name_ = "mcl";
    } else {
      name_ = "hopbytes";
    }
  }
  const std::string& name() const { return name_; }
  double operator()(std::span<const SlotId> slot_of) const {
    if (placement_.mode == Placement::Mode::nodes_only) return off_node_bytes(graph_, placement_.alloc, slot_of);
    if (routing_) return metrics::max_channel_load(graph_, placement_.alloc, slot_of, *routing_);
    return metrics::hop_bytes(graph_, placement_.alloc, slot_of);
  }

 private:
  const graph::CommGraph& graph_;
  const Placement& placement_;
  mapping::Objective kind_;
  std::shared_ptr<const topology::RoutingModel> routing_;
  std::string name_;
};

mapping::MapOptions map_options_of(const Config& config) {
  mapping::MapOptions options;
  options.objective = config.objective;
  options.routing = config.routing;
  options.routing_stated = config.routing_stated;
  options.time_budget_ms = config.time_budget_ms;
  return options;
}

bool has_socket_information(const Placement& placement) {
  for (int s : placement.socket_of_slot)
    if (s > 0) return true;
  return false;
}

}  // namespace

Decision decide(const graph::CommGraph& graph, const Placement& placement, const Config& config) {
  const auto start = std::chrono::steady_clock::now();
  const topology::Allocation& alloc = placement.alloc;
  Decision d;
  const Objective objective(graph, placement, config);
  d.objective = objective.name();

  mapping::Mapping candidate;
  mapping::Choice choice;
  std::string refusal;
  std::optional<PrecomputedMapping> precomputed;
  if (!config.mapping_path.empty())
    precomputed = find_precomputed_mapping(config.mapping_path, graph, alloc, refusal);
  if (precomputed) {
    d.algorithm = "precomputed:" + precomputed->file.algorithm;
    d.note = "RANKMAP_MAPPING: " + precomputed->path;
    candidate = std::move(precomputed->file.slot_of);
  } else if (placement.mode == Placement::Mode::nodes_only) {
    d.algorithm = "concentrate";
    candidate = concentrate_on_nodes(graph, alloc);
  } else {
    mapping::MapOptions options = map_options_of(config);
    options.threads = mapping_threads(config.threads, alloc);
    options.choice = &choice;
    candidate = mapping::run_chain(config.algorithm, mapping::core_algorithms(), graph, alloc, options);
    d.algorithm = choice.chosen.empty() ? config.algorithm : config.algorithm + "(" + choice.chosen + ")";
  }
  if (!precomputed && has_socket_information(placement))
    order_within_sockets(graph, alloc, placement.socket_of_slot, candidate);

  const mapping::Mapping identity = mapping::identity_mapping(graph.num_tasks());
  // auto's own measurements are under this objective; the socket order within nodes changes no
  // link's load and no hop count.
  d.before = choice.objectives ? choice.objectives->launcher : objective(identity);
  d.after = choice.objectives ? choice.objectives->chosen : objective(candidate);
  if (std::isnan(d.before)) {
    d.note = "RANKMAP_TIME_BUDGET_MS ran out while the launcher's order was being measured";
  } else if (mapping::is_identity(candidate)) {
    if (d.note.empty()) d.note = "the candidate is the identity";
  } else {
    // Only which processes share a node is known in nodes_only mode: no routing to hedge.
    // auto's hedge measured both loads already (choice.dor_loads): the socket order within nodes
    // changes no link's load.
    mapping::AcceptanceTest test =
        mapping::acceptance_test(map_options_of(config), placement.alloc.network(), d.before, d.after, config.min_gain);
    test.check_dor = test.check_dor && placement.mode != Placement::Mode::nodes_only;
    test.known_dor = choice.dor_loads;
    const std::string why_not = mapping::refusal_of(test, graph, alloc, candidate, identity);
    d.applied = why_not.empty();
    if (!d.applied) d.note = d.note.empty() ? why_not : d.note + "; " + why_not;
  }
  if (!refusal.empty()) d.note = d.note.empty() ? refusal : refusal + "; " + d.note;
  d.slot_of = d.applied ? std::move(candidate) : identity;
  d.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return d;
}

}  // namespace rankmap::runtime
