// The mapping options `rankmap map` and `rankmap place` share, and the objective they print.
#pragma once

#include <CLI/CLI.hpp>
#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/topology/allocation.hpp>
#include <rankmap/topology/routing.hpp>

#include <memory>
#include <span>
#include <string>
#include <thread>

namespace rankmap::tools {

/// The values of --algo, --objective, --routing, --time-budget-ms, --seed and --threads.
struct MappingCommandOptions {
  std::string algorithm = "auto";
  std::string objective = "mcl";
  std::string routing = "default";
  bool routing_stated = false;  ///< --routing was given: `place` then checks no second routing
  double time_budget_ms = 10000;
  std::uint64_t seed = 1;
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
};

/// Adds the options to `command`.
void add_mapping_options(CLI::App& command, MappingCommandOptions& options);

/// Checks the values (an unknown algorithm lists the known ones) and makes the core's options.
mapping::MapOptions map_options_of(const MappingCommandOptions& options);

/// The chain's name with the member a portfolio chose: `auto(split+refine)`, or `chain` alone.
std::string algorithm_label(const std::string& chain, const mapping::Choice& choice);

/// The objective of a mapping as the options define it: MCL under the routing model (summed over
/// `phases` when there are any) or hop-bytes.
class ObjectiveMeter {
 public:
  ObjectiveMeter(const mapping::MapOptions& options, const graph::CommGraph& graph, const topology::Allocation& alloc,
                 std::span<const graph::CommGraph> phases);
  double operator()(std::span<const SlotId> slot_of) const;
  /// E.g. `mcl (adaptive), summed over 7 phases` or `hopbytes`.
  std::string description() const;

 private:
  mapping::Objective objective_;
  topology::RoutingSpec routing_;  ///< with `default` resolved on the allocation's network
  const graph::CommGraph& graph_;
  const topology::Allocation& alloc_;
  std::span<const graph::CommGraph> phases_;
  std::unique_ptr<topology::RoutingModel> model_;
};

}  // namespace rankmap::tools
