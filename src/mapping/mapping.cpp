// What mapping.hpp declares: the table of core algorithms, lookup by name, and chains such as `mahd+refine`.
#include <rankmap/mapping/mapping.hpp>

#include "core_algorithm_functions.hpp"

#include <stdexcept>

namespace rankmap::mapping {

namespace {

constexpr AlgorithmInfo kCoreAlgorithms[] = {
#define RANKMAP_ALGORITHM(function, name, summary) {name, &function, summary},
#include "core_algorithms.def"
#undef RANKMAP_ALGORITHM
};

std::string_view base_name(std::string_view stage) { return stage.substr(0, stage.find(':')); }

}  // namespace

std::vector<std::string_view> chain_stages(std::string_view chain) {
  std::vector<std::string_view> stages;
  for (std::size_t pos = 0; pos <= chain.size();) {
    const std::size_t end = std::min(chain.find('+', pos), chain.size());
    stages.push_back(chain.substr(pos, end - pos));
    pos = end + 1;
  }
  return stages;
}

std::span<const AlgorithmInfo> core_algorithms() { return kCoreAlgorithms; }

const AlgorithmInfo* find_algorithm(std::span<const AlgorithmInfo> algorithms, std::string_view name) {
  for (const AlgorithmInfo& a : algorithms)
    if (a.name == base_name(name)) return &a;
  return nullptr;
}

Objective parse_objective(std::string_view text) {
  if (text == "mcl") return Objective::mcl;
  if (text == "hopbytes") return Objective::hop_bytes;
  throw InputError("objective '" + std::string(text) + "': expected mcl or hopbytes");
}

std::string_view to_string(Objective objective) { return objective == Objective::mcl ? "mcl" : "hopbytes"; }

Mapping run_chain(std::string_view chain, std::span<const AlgorithmInfo> algorithms, const graph::CommGraph& graph,
                  const topology::Allocation& alloc, const MapOptions& options) {
  if (graph.num_tasks() != alloc.num_slots())
    throw InputError("mapping: the graph has " + std::to_string(graph.num_tasks()) + " tasks but the allocation " +
                     std::to_string(alloc.num_slots()) + " slots");
  for (std::span<const graph::CommGraph> phases : {options.phases, options.hedge_phases})
    for (std::size_t p = 0; p < phases.size(); ++p)
      if (phases[p].num_tasks() != graph.num_tasks())
        throw InputError("mapping: phase " + std::to_string(p + 1) + " has " + std::to_string(phases[p].num_tasks()) +
                         " tasks but the graph " + std::to_string(graph.num_tasks()));
  std::vector<std::pair<const AlgorithmInfo*, std::string_view>> stages;
  for (std::string_view stage : chain_stages(chain)) {
    const AlgorithmInfo* info = find_algorithm(algorithms, stage);
    if (!info) throw InputError("algorithm '" + std::string(stage) + "' is not known here");
    stages.emplace_back(info, stage);
  }
  const Deadline deadline(options.time_budget_ms);
  Mapping current;
  for (const auto& [info, stage] : stages) {
    MapOptions stage_options = options;
    const auto colon = stage.find(':');
    stage_options.parameter = colon == std::string_view::npos ? std::string() : std::string(stage.substr(colon + 1));
    stage_options.initial = current.empty() ? options.initial : &current;
    stage_options.time_budget_ms = std::max(0.0, deadline.remaining_ms());
    if (options.choice) {
      options.choice->dor_loads.reset();
      options.choice->objectives.reset();
    }
    Mapping next = info->map(graph, alloc, stage_options);
    if (static_cast<TaskId>(next.size()) != graph.num_tasks() || !is_permutation(next))
      throw std::logic_error("algorithm '" + std::string(stage) + "' returned an invalid mapping");
    current = std::move(next);
  }
  return current;
}

bool is_permutation(std::span<const SlotId> m) {
  std::vector<bool> seen(m.size(), false);
  for (SlotId s : m) {
    if (s < 0 || static_cast<std::size_t>(s) >= m.size() || seen[s]) return false;
    seen[s] = true;
  }
  return true;
}

bool is_identity(std::span<const SlotId> m) {
  for (std::size_t t = 0; t < m.size(); ++t)
    if (m[t] != static_cast<SlotId>(t)) return false;
  return true;
}

Mapping identity_mapping(SlotId n) {
  Mapping m(static_cast<std::size_t>(n));
  for (SlotId i = 0; i < n; ++i) m[i] = i;
  return m;
}

std::vector<TaskId> inverse(std::span<const SlotId> slot_of) {
  std::vector<TaskId> task_of(slot_of.size());
  for (std::size_t t = 0; t < slot_of.size(); ++t) task_of[slot_of[t]] = static_cast<TaskId>(t);
  return task_of;
}

}  // namespace rankmap::mapping
