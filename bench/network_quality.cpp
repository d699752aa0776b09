// Mapping quality on fat-trees and dragonflies: tree, the greedy mappers and Scotch's tree-leaf
// mapping against the launcher's order, under SimGrid's routing and under adaptive, as Markdown.
#include <rankmap/graph/patterns.hpp>
#include <rankmap/mapping/offline.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>
#include <rankmap/topology/allocation_generators.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace rankmap;
using topology::Allocation;
using topology::Network;

struct Machine {
  std::string name;
  Allocation alloc;
  std::string simgrid_routing;  ///< SimGrid's own routes on this network
};

// 512 nodes each: a fat-tree tapered 2:1 above its leaf switches (16 nodes down, 8 links up), and a
// dragonfly of 8 groups of 4 chassis of 8 routers with 2 nodes each; whole, and 256 nodes of a busy
// machine with 2 processes per node.
std::vector<Machine> machines() {
  const Network tree = Network::parse("fattree:3;16,8,4;1,8,8;1,1,1");
  const Network df = Network::parse("dragonfly:8,2;4,1;8,1;2");
  return {{"fattree:3;16,8,4;1,8,8;1,1,1 whole", Allocation::full(tree, 1), "dmodk"},
          {"fattree 256 fragmented, ppn 2", Allocation::of_nodes(tree, topology::fragmented_nodes(tree, 256, 7), 2), "dmodk"},
          {"dragonfly:8,2;4,1;8,1;2 whole", Allocation::full(df, 1), "minimal"},
          {"dragonfly 256 fragmented, ppn 2", Allocation::of_nodes(df, topology::fragmented_nodes(df, 256, 7), 2),
           "minimal"}};
}

std::vector<std::string> pattern_list() { return {"stencil3d", "stencil27", "nas-cg", "fft2d", "random"}; }

struct Figures {
  double hop_bytes, mcl_simgrid, mcl_adaptive;
};

Figures measure(const graph::CommGraph& graph, const Allocation& alloc, const mapping::Mapping& m,
                const std::string& simgrid_routing) {
  const auto simgrid = topology::make_routing_model(alloc.network(), simgrid_routing);
  const auto adaptive = topology::make_routing_model(alloc.network(), "adaptive");
  return {metrics::hop_bytes(graph, alloc, m), metrics::max_channel_load(graph, alloc, m, *simgrid),
          metrics::max_channel_load(graph, alloc, m, *adaptive)};
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const double budget_ms = argc > 1 ? std::atof(argv[1]) : 1000;
  const std::vector<std::string> algorithms = {"tree:start", "tree", "mahd+refine", "emahd+refine", "gge+refine",
                                               "scotch", "scotch+refine"};
  std::map<std::string, std::vector<double>> log_ratios;  // per algorithm: hop-bytes, MCL SimGrid, MCL adaptive
  std::printf("| allocation | pattern | algorithm | hop-bytes | MCL (SimGrid's routing) | MCL adaptive | time (s) |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const Machine& machine : machines())
    for (const std::string& pattern : pattern_list()) {
      graph::PatternSpec spec;
      spec.name = pattern;
      spec.ranks = machine.alloc.num_slots();
      const graph::CommGraph graph = graph::make_pattern(spec);
      const Allocation alloc = machine.alloc.first_slots(graph.num_tasks());
      const Figures base = measure(graph, alloc, mapping::identity_mapping(graph.num_tasks()), machine.simgrid_routing);
      for (const std::string& algorithm : algorithms) {
        mapping::MapOptions options;
        options.routing = topology::RoutingSpec::parse(machine.simgrid_routing);
        options.time_budget_ms = budget_ms;
        const auto start = std::chrono::steady_clock::now();
        const mapping::Mapping m = mapping::run_chain(algorithm, mapping::all_algorithms(), graph, alloc, options);
        const double time = seconds_since(start);
        const Figures f = measure(graph, alloc, m, machine.simgrid_routing);
        const double ratios[] = {f.hop_bytes / base.hop_bytes, f.mcl_simgrid / base.mcl_simgrid,
                                 f.mcl_adaptive / base.mcl_adaptive};
        auto& logs = log_ratios[algorithm];
        logs.resize(3, 0);
        for (int k = 0; k < 3; ++k) logs[k] += std::log(ratios[k]);
        std::printf("| %s | %s | %s | %.3f | %.3f | %.3f | %.2f |\n", machine.name.c_str(), pattern.c_str(),
                    algorithm.c_str(), ratios[0], ratios[1], ratios[2], time);
        std::fflush(stdout);
      }
    }
  const double count = static_cast<double>(machines().size() * pattern_list().size());
  std::printf("\n| algorithm | geomean hop-bytes / identity | geomean MCL (SimGrid's routing) / identity | geomean MCL "
              "adaptive / identity |\n");
  std::printf("|---|---|---|---|\n");
  for (const std::string& algorithm : algorithms) {
    const auto& logs = log_ratios[algorithm];
    std::printf("| %s | %.3f | %.3f | %.3f |\n", algorithm.c_str(), std::exp(logs[0] / count),
                std::exp(logs[1] / count), std::exp(logs[2] / count));
  }
}
