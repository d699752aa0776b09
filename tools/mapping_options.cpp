// The shared mapping options: declaration, checks, and the objective they select.
#include "mapping_options.hpp"

#include <rankmap/mapping/offline.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

namespace rankmap::tools {

namespace {

std::string algorithm_names() {
  std::string names;
  for (const mapping::AlgorithmInfo& a : mapping::all_algorithms())
    names += (names.empty() ? "" : ", ") + std::string(a.name);
  return names;
}

/// Refuses an unknown stage before any file is read, listing the names that exist.
void check_algorithm(const std::string& chain) {
  for (std::string_view stage : mapping::chain_stages(chain))
    if (!mapping::find_algorithm(mapping::all_algorithms(), stage))
      throw InputError("--algo: '" + std::string(stage) + "' is not an algorithm; known: " + algorithm_names());
}

}  // namespace

void add_mapping_options(CLI::App& command, MappingCommandOptions& options) {
  command.add_option("--algo", options.algorithm,
                     "algorithm or chain, e.g. mahd+refine (default auto: a portfolio of starts, each refined, the "
                     "best kept; never worse than the launcher's order); known: " +
                         algorithm_names());
  command.add_option("--objective", options.objective, "mcl (default) or hopbytes");
  command
      .add_option("--routing", options.routing,
                  "routing model MCL is measured under: default (the network's own: adaptive on grids, dmodk on "
                  "fat-trees, minimal on dragonflies), adaptive (every network), adaptive-hop, dor, dor:<order> "
                  "(grids), dmodk (fat-trees), minimal, valiant (dragonflies). Unnamed on a grid, auto and place "
                  "also refuse mappings that raise the MCL under dimension-ordered routing")
      ->each([&options](const std::string&) { options.routing_stated = true; });
  command.add_option("--time-budget-ms", options.time_budget_ms, "time budget of the whole chain (default 10000)");
  command.add_option("--seed", options.seed, "random seed (default 1)");
  command.add_option("--threads", options.threads, "threads for algorithms that use them (default: every core)");
}

std::string algorithm_label(const std::string& chain, const mapping::Choice& choice) {
  return choice.chosen.empty() ? chain : chain + "(" + choice.chosen + ")";
}

mapping::MapOptions map_options_of(const MappingCommandOptions& o) {
  check_algorithm(o.algorithm);
  mapping::MapOptions options;
  options.objective = mapping::parse_objective(o.objective);
  options.routing = topology::RoutingSpec::parse(o.routing);
  options.routing_stated = o.routing_stated;
  if (!(o.time_budget_ms >= 0)) throw InputError("--time-budget-ms must be at least 0");
  if (o.threads < 1) throw InputError("--threads must be at least 1");
  options.time_budget_ms = o.time_budget_ms;
  options.seed = o.seed;
  options.threads = o.threads;
  return options;
}

ObjectiveMeter::ObjectiveMeter(const mapping::MapOptions& options, const graph::CommGraph& graph,
                               const topology::Allocation& alloc, std::span<const graph::CommGraph> phases)
    : objective_(options.objective),
      routing_(options.routing.on(alloc.network())),
      graph_(graph),
      alloc_(alloc),
      phases_(phases),
      model_(topology::make_routing_model(alloc.network(), options.routing)) {}

double ObjectiveMeter::operator()(std::span<const SlotId> slot_of) const {
  if (objective_ == mapping::Objective::hop_bytes) return metrics::hop_bytes(graph_, alloc_, slot_of);
  return phases_.empty() ? metrics::max_channel_load(graph_, alloc_, slot_of, *model_)
                         : metrics::phased_max_channel_load(phases_, alloc_, slot_of, *model_);
}

std::string ObjectiveMeter::description() const {
  if (objective_ == mapping::Objective::hop_bytes) return "hopbytes";
  std::string text = "mcl (" + routing_.to_string() + ")";
  if (!phases_.empty()) text += ", summed over " + std::to_string(phases_.size()) + " phases";
  return text;
}

}  // namespace rankmap::tools
