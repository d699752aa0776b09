// RAHTM against every other mapper on the issue 5 instances: MCL under adaptive routing and time.
//
//   rahtm_quality --list                            the instance names, in the order they run
//   rahtm_quality [--only ALGO]... [INSTANCE...]   one tab-separated line per (instance, algorithm):
//   instance  algorithm  mcl  mcl/identity  wall_seconds  cpu_seconds  note
// (CPU seconds of the whole process, all threads: the machine is shared, so wall time is noisy.)
// bench/run_rahtm_bench.sh turns the lines into the RAHTM section of BENCHMARKS.md.
#include <rankmap/graph/patterns.hpp>
#include <rankmap/mapping/offline.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/topology/allocation_generators.hpp>

#include "rahtm/rahtm.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace rankmap;
using topology::Allocation;
using topology::Grid;

struct Instance {
  std::string name;
  std::function<graph::CommGraph()> graph;
  std::function<Allocation()> alloc;
  std::vector<std::string> dimorders;  ///< the BG/Q-style orders that make sense on this grid
};

graph::CommGraph pattern(const std::string& name, TaskId ranks) {
  return graph::make_pattern({.name = name, .dims = {}, .ranks = ranks});
}

std::vector<Instance> instances() {
  const std::vector<std::string> bgq = {"ABCDET", "TABCDE", "ACEBDT"};
  const std::vector<std::string> three = {"ABCT", "TABC", "ACBT"};
  const std::vector<std::string> nas = {"nas-cg", "nas-bt", "nas-sp"};
  std::vector<Instance> list;
  // Cheap instances first, then the 16,384-task targets: a run stopped early still has them.
  for (const std::string& p : nas)
    list.push_back({p + "/1024/torus:4x4x4x4x2/ppn2", [p] { return pattern(p, 1024); },
                    [] { return Allocation::full(Grid::parse("torus:4x4x4x4x2"), 2); }, bgq});
  list.push_back({"nas-bt/1024/fragmented128:torus:8x8x8/ppn8", [] { return pattern("nas-bt", 1024); },
                  [] {
                    const Grid g = Grid::parse("torus:8x8x8");
                    return Allocation::of_nodes(g, topology::fragmented_nodes(g, 128, 1), 8);
                  },
                  three});
  for (const std::string& p : nas)
    list.push_back({p + "/16384/torus:4x4x4x4x2/ppn32", [p] { return pattern(p, 16384); },
                    [] { return Allocation::full(Grid::parse("torus:4x4x4x4x2"), 32); }, bgq});
  for (const std::string& p : nas)
    list.push_back({p + "/4096/torus:8x8x8/ppn8", [p] { return pattern(p, 4096); },
                    [] { return Allocation::full(Grid::parse("torus:8x8x8"), 8); }, three});
  return list;
}

/// rahtm's own notes: the clustering and the cube problems (solved, proven optimal by CBC).
std::string rahtm_note(const rahtm::RahtmReport& r) {
  return r.clustering + "; " + std::to_string(r.hierarchies) + " hierarchies, best: cube " + std::to_string(r.cube_dims) +
         (r.short_dims_first ? ", short dimensions first" : "") + "; cubes " + std::to_string(r.cube_solved) + " distinct of " +
         std::to_string(r.cube_problems) + ", " + std::to_string(r.cube_proven) + " proven" +
         (r.cube_too_large > 0 ? ", " + std::to_string(r.cube_too_large) + " too large for the MILP" : "");
}

void run(const Instance& in, const std::vector<std::string>& only) {
  const graph::CommGraph g = in.graph();
  const Allocation alloc = in.alloc();
  const auto routing = topology::make_routing_model(alloc.grid(), "adaptive");
  const double identity = metrics::max_channel_load(g, alloc, mapping::identity_mapping(g.num_tasks()), *routing);
  std::vector<std::pair<std::string, double>> chains = {{"identity", 0}};
  for (const std::string& o : in.dimorders) chains.push_back({"dimorder:" + o, 0});
  // rahtm gets a budget no run reaches (it respects its budget since issue 18): its defaults set its effort.
  chains.insert(chains.end(), {{"hilbert", 0}, {"mahd+refine", 30000}, {"scotch", 0}, {"rahtm", 1e9}});
  for (const auto& [chain, budget] : chains) {
    if (!only.empty() && std::find(only.begin(), only.end(), chain) == only.end()) continue;
    mapping::MapOptions options;
    options.threads = 2;
    options.time_budget_ms = budget;
    std::string note = budget > 0 && budget < 1e9 ? "budget " + std::to_string(static_cast<int>(budget / 1000)) + " s" : "";
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    try {
      mapping::Mapping m;
      if (chain == "rahtm") {
        rahtm::RahtmReport report;
        m = rahtm::run_rahtm(g, alloc, options, &report);
        note = rahtm_note(report);
      } else {
        m = mapping::run_chain(chain, mapping::all_algorithms(), g, alloc, options);
      }
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
      const double mcl = metrics::max_channel_load(g, alloc, m, *routing);
      std::printf("%s\t%s\t%.6g\t%.4f\t%.2f\t%.2f\t%s\n", in.name.c_str(), chain.c_str(), mcl, mcl / identity,
                  seconds, cpu_seconds, note.c_str());
    } catch (const InputError& e) {
      std::printf("%s\t%s\t-\t-\t-\t-\t%s\n", in.name.c_str(), chain.c_str(), e.what());
    }
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> only, wanted;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--list") {
      for (const Instance& in : instances()) std::printf("%s\n", in.name.c_str());
      return 0;
    }
    if (std::string_view(argv[i]) == "--only" && i + 1 < argc) only.emplace_back(argv[++i]);
    else wanted.emplace_back(argv[i]);
  }
  for (const Instance& in : instances())
    if (wanted.empty() || std::find(wanted.begin(), wanted.end(), in.name) != wanted.end()) run(in, only);
}
