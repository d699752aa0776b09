// Deadlines (issue 18): the wall time of every algorithm and chain against its time budget, next to
// the time of one objective evaluation measured in the same run. A budget may be exceeded by at
// most 10% plus one objective evaluation (a mapper's final scoring); bench/run_deadline_bench.sh
// turns the CSV this prints into the BENCHMARKS.md section.
//
// Usage: deadline_bench [--budgets 200,1000] [--instances a,b] [--algos a,b+c] [--threads N]
// Prints one CSV line per (instance, budget, algorithm) on stdout.
#include <rankmap/graph/patterns.hpp>
#include <rankmap/mapping/offline.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace rankmap;
using topology::Allocation;
using topology::Grid;

struct Instance {
  graph::CommGraph graph;
  Allocation alloc;
};

graph::CommGraph pattern(const char* name, std::vector<int> dims, TaskId ranks = 0) {
  return graph::make_pattern({.name = name, .dims = std::move(dims), .ranks = ranks, .bytes = 1,
                              .periodic = std::string_view(name).starts_with("stencil"), .seed = 42});
}

/// The instances of the mapper speed table (bench/mapping_bench.cpp), plus the two where budgets
/// were seen overrun: fft2d on SMPI's 8x8x8 (auto@10s took 50 s) and the runtime benchmark's
/// 16,384-rank stencil on torus:16x16x16 with 4 per node (mahd+refine took 0.455 s of 0.2 s).
const std::vector<std::pair<std::string, std::function<Instance()>>>& instance_makers() {
  static const std::vector<std::pair<std::string, std::function<Instance()>>> makers = {
      {"stencil3d_1k_torus8x8x16_ppn1",
       [] { return Instance{pattern("stencil3d", {16, 8, 8}), Allocation::full(Grid::parse("torus:8x8x16"), 1)}; }},
      {"stencil3d_1k_torus4x4x4_ppn16",
       [] { return Instance{pattern("stencil3d", {16, 8, 8}), Allocation::full(Grid::parse("torus:4x4x4"), 16)}; }},
      {"fft2d_1k_torus8x8x8_ppn2",
       [] { return Instance{pattern("fft2d", {32, 32}), Allocation::full(Grid::parse("torus:8x8x8"), 2)}; }},
      {"stencil3d_16k_torus8x8x8_ppn32",
       [] { return Instance{pattern("stencil3d", {32, 32, 16}), Allocation::full(Grid::parse("torus:8x8x8"), 32)}; }},
      {"random6_16k_torus8x8x8_ppn32",
       [] { return Instance{pattern("random", {}, 16384), Allocation::full(Grid::parse("torus:8x8x8"), 32)}; }},
      {"stencil3d_16k_torus16x16x16_ppn4",
       [] { return Instance{pattern("stencil3d", {32, 32, 16}), Allocation::full(Grid::parse("torus:16x16x16"), 4)}; }},
  };
  return makers;
}

/// Every algorithm of the tool (dimorder in its default order) and the chains users run.
std::vector<std::string> default_algorithms() {
  std::vector<std::string> names;
  for (const mapping::AlgorithmInfo& a : mapping::all_algorithms()) names.emplace_back(a.name);
  for (const char* chain : {"mahd+refine", "emahd+refine", "split+refine", "rahtm:milp=off+refine"}) names.emplace_back(chain);
  return names;
}

std::vector<std::string> split_list(const char* text) {
  std::vector<std::string> out;
  std::string item;
  for (const char* p = text;; ++p) {
    if (*p == ',' || *p == '\0') {
      if (!item.empty()) out.push_back(item);
      item.clear();
      if (*p == '\0') return out;
    } else {
      item += *p;
    }
  }
}

/// CPU time of the whole process (every thread) and of its reaped children (scotch maps in a child
/// process under a budget), in ms: next to the wall time it shows how much of a run the machine's
/// other jobs took.
double process_cpu_ms() {
  double ms = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage usage{};
    getrusage(who, &usage);
    for (const timeval& t : {usage.ru_utime, usage.ru_stime}) ms += 1000.0 * static_cast<double>(t.tv_sec) + t.tv_usec / 1000.0;
  }
  return ms;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// The least of three timings of one MCL evaluation (adaptive routing, the identity): what a
/// mapper's final scoring of a candidate costs.
double evaluation_ms(const Instance& in) {
  const mapping::Mapping identity = mapping::identity_mapping(in.graph.num_tasks());
  const auto routing = topology::make_routing_model(in.alloc.grid(), "adaptive");
  double best = 1e300;
  for (int i = 0; i < 3; ++i) {
    const auto start = std::chrono::steady_clock::now();
    volatile double mcl = metrics::max_channel_load(in.graph, in.alloc, identity, *routing);
    (void)mcl;
    best = std::min(best, ms_since(start));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<double> budgets{200, 1000};
  std::vector<std::string> instances, algorithms = default_algorithms();
  for (const auto& [name, make] : instance_makers()) instances.push_back(name);
  int threads = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--budgets")) {
      budgets.clear();
      for (const std::string& b : split_list(argv[i + 1])) budgets.push_back(std::atof(b.c_str()));
    } else if (!std::strcmp(argv[i], "--instances")) {
      instances = split_list(argv[i + 1]);
    } else if (!std::strcmp(argv[i], "--algos")) {
      algorithms = split_list(argv[i + 1]);
    } else if (!std::strcmp(argv[i], "--threads")) {
      threads = std::atoi(argv[i + 1]);
    } else {
      std::fprintf(stderr, "deadline_bench: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  std::printf("instance,tasks,algorithm,budget_ms,wall_ms,cpu_ms,evaluation_ms,mcl_vs_identity,error,chosen\n");
  for (const std::string& name : instances) {
    const auto maker = std::find_if(instance_makers().begin(), instance_makers().end(),
                                    [&](const auto& m) { return m.first == name; });
    if (maker == instance_makers().end()) {
      std::fprintf(stderr, "deadline_bench: unknown instance %s\n", name.c_str());
      return 2;
    }
    const Instance in = maker->second();
    const auto routing = topology::make_routing_model(in.alloc.grid(), "adaptive");
    const double identity_mcl =
        metrics::max_channel_load(in.graph, in.alloc, mapping::identity_mapping(in.graph.num_tasks()), *routing);
    for (double budget : budgets)
      for (const std::string& algorithm : algorithms) {
        const double eval_ms = evaluation_ms(in);
        mapping::MapOptions options;
        options.time_budget_ms = budget;
        options.threads = threads;
        // What auto chose, or scotch's fallback (`identity`, `initial`) when it was stopped at the deadline.
        mapping::Choice choice;
        options.choice = &choice;
        std::string error;
        mapping::Mapping m;
        const double cpu_start = process_cpu_ms();
        const auto start = std::chrono::steady_clock::now();
        try {
          m = mapping::run_chain(algorithm, mapping::all_algorithms(), in.graph, in.alloc, options);
        } catch (const std::exception& e) {
          error = e.what();
        }
        const double wall = ms_since(start);
        const double cpu = process_cpu_ms() - cpu_start;
        const double quality =
            m.empty() ? 0 : metrics::max_channel_load(in.graph, in.alloc, m, *routing) / identity_mcl;
        std::replace(error.begin(), error.end(), ',', ';');
        std::printf("%s,%d,%s,%g,%.3f,%.3f,%.3f,%.4f,%s,%s\n", name.c_str(), static_cast<int>(in.graph.num_tasks()),
                    algorithm.c_str(), budget, wall, cpu, eval_ms, quality, error.c_str(), choice.chosen.c_str());
        std::fflush(stdout);
      }
  }
  return 0;
}
