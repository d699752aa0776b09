// The first scoring of a mapping in a fresh process, as the runtime's auto does it: the launcher's
// order's MCL under adaptive routing, on a new routing model whose route patterns are all built on
// the way, in memory the process has not touched before. Timed is the routing of the node flows;
// gathering them from the edges, which builds no patterns, is done before the clock starts.
// bench/quality/run_first_scoring.sh runs one process per instance, since a process that scored one
// instance reuses that memory for the next (the quality table, eval_bench). Prints one CSV row per
// instance of the quality set that matches --filter: the first scoring's wall time and minor page
// faults, and a second scoring's wall time on the same model, the baseline measured in the same run.
#include "quality_instances.hpp"

#include <CLI/CLI.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/node_flows.hpp>
#include <rankmap/topology/routing.hpp>

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace {

using namespace rankmap;

long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

/// The MCL of `flows` on `routing`, and the wall time and minor page faults it took.
struct Timed {
  double mcl = 0, ms = 0;
  long faults = 0;
};

Timed timed_mcl(std::span<const metrics::NodeFlow> flows, const topology::RoutingModel& routing) {
  const long faults = minor_faults();
  const auto start = std::chrono::steady_clock::now();
  const double mcl = metrics::max_channel_load(metrics::channel_loads(flows, routing));
  const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
  return {mcl, took.count(), minor_faults() - faults};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("The first scoring of the launcher's order in a fresh process (one row per matching instance).");
  std::string set = "training", filter, data_dir = RANKMAP_BENCH_DATA_DIR;
  bool list = false;
  app.add_option("--set", set, "instances: table, quick or training");
  app.add_option("--filter", filter, "only the instances whose '<pattern> on <allocation>' contains TEXT");
  app.add_option("--data-dir", data_dir, "where the real graphs are (bench/data)");
  app.add_flag("--list", list, "only list the matching instances, a line each");
  CLI11_PARSE(app, argc, argv);
  try {
    const bench::InstanceSet instance_set = bench::parse_instance_set(set);
    const std::vector<bench::AllocationCase> allocations = bench::quality_allocations(instance_set);
    for (const bench::Instance& instance : bench::quality_instances(allocations, instance_set, data_dir)) {
      const std::string label = bench::instance_label(instance);
      if (!instance.skip_reason.empty() || label.find(filter) == std::string::npos) continue;
      if (list) {
        std::printf("%s\n", label.c_str());
        continue;
      }
      const graph::CommGraph graph = bench::instance_graph(instance);
      const topology::Allocation alloc = bench::instance_allocation(instance);
      const std::vector<metrics::NodeFlow> flows =
          metrics::node_flows(graph, alloc, mapping::identity_mapping(graph.num_tasks()));
      const auto routing = topology::make_routing_model(alloc.network(), "adaptive");
      const Timed first = timed_mcl(flows, *routing);
      const Timed second = timed_mcl(flows, *routing);
      std::printf("\"%s\",%d,%zu,%.3f,%ld,%.3f,%.17g\n", label.c_str(), static_cast<int>(graph.num_tasks()),
                  flows.size(), first.ms, first.faults, second.ms, first.mcl);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "first_scoring: %s\n", e.what());
    return 1;
  }
  return 0;
}
