// Quality of split, grasp and scotch against the identity and the Gilmore-Lawler bound, as a Markdown table.
#include <rankmap/graph/patterns.hpp>
#include <rankmap/mapping/offline.hpp>
#include <rankmap/metrics/qap_bound.hpp>
#include <rankmap/topology/allocation_generators.hpp>

#include "measure.hpp"

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
using topology::Grid;

struct Machine {
  std::string name;
  Allocation alloc;
};

std::vector<Machine> machines() {
  const Grid torus = Grid::parse("torus:8x8x8");
  const Grid big = Grid::parse("torus:16x16x16");
  return {{"torus:8x8x8 ppn1", Allocation::full(torus, 1)},
          {"mesh:8x8x8 ppn1", Allocation::full(Grid::parse("mesh:8x8x8"), 1)},
          {"fragmented 512 of torus:16x16x16 ppn1", Allocation::of_nodes(big, topology::fragmented_nodes(big, 512, 7), 1)},
          {"fragmented 128 of torus:16x16x16 ppn4", Allocation::of_nodes(big, topology::fragmented_nodes(big, 128, 8), 4)}};
}

std::vector<std::string> pattern_list() { return {"stencil3d", "stencil27", "fft2d", "nas-cg", "random", "binomial"}; }

}  // namespace

int main(int argc, char** argv) {
  const double budget_ms = argc > 1 ? std::atof(argv[1]) : 2000;
  const std::vector<std::string> algorithms = {"split", "grasp", "scotch", "split+grasp"};
  std::map<std::string, std::vector<double>> log_ratios;  // per algorithm: hb, mcl adaptive, mcl dor, hb/GL
  std::printf("| allocation | pattern | GL / identity hb | algorithm | hop-bytes | MCL adaptive | MCL dor | hop-bytes / GL | time (s) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (const Machine& machine : machines())
    for (const std::string& pattern : pattern_list()) {
      graph::PatternSpec spec;
      spec.name = pattern;
      spec.ranks = machine.alloc.num_slots();
      const graph::CommGraph graph = graph::make_pattern(spec);
      const Allocation alloc = machine.alloc.first_slots(graph.num_tasks());
      const bench::Figures base = bench::measure(graph, alloc, mapping::identity_mapping(graph.num_tasks()), {"adaptive", "dor"});
      const double bound = metrics::gilmore_lawler_bound(graph, alloc);
      for (const std::string& algorithm : algorithms) {
        mapping::MapOptions options;
        options.objective = mapping::Objective::hop_bytes;
        options.time_budget_ms = budget_ms;
        const auto start = std::chrono::steady_clock::now();
        const mapping::Mapping m = mapping::run_chain(algorithm, mapping::all_algorithms(), graph, alloc, options);
        const double time = bench::seconds_since(start);
        const bench::Figures f = bench::measure(graph, alloc, m, {"adaptive", "dor"});
        const double ratios[] = {f.hop_bytes / base.hop_bytes, f.mcl[0] / base.mcl[0], f.mcl[1] / base.mcl[1],
                                 f.hop_bytes / bound};
        auto& logs = log_ratios[algorithm];
        logs.resize(4, 0);
        for (int k = 0; k < 4; ++k) logs[k] += std::log(ratios[k]);
        std::printf("| %s | %s | %.3f | %s | %.3f | %.3f | %.3f | %.2f | %.3f |\n", machine.name.c_str(), pattern.c_str(),
                    bound / base.hop_bytes, algorithm.c_str(), ratios[0], ratios[1], ratios[2], ratios[3], time);
        std::fflush(stdout);
      }
    }
  const double count = static_cast<double>(machines().size() * pattern_list().size());
  std::printf("\n| algorithm | geomean hop-bytes / identity | geomean MCL adaptive / identity | geomean MCL dor / identity | geomean hop-bytes / GL |\n");
  std::printf("|---|---|---|---|---|\n");
  for (const std::string& algorithm : algorithms) {
    const auto& logs = log_ratios[algorithm];
    std::printf("| %s | %.3f | %.3f | %.3f | %.2f |\n", algorithm.c_str(), std::exp(logs[0] / count),
                std::exp(logs[1] / count), std::exp(logs[2] / count), std::exp(logs[3] / count));
  }
}
