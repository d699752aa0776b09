// Speed of the fast mappers (issue 3 targets), each next to a baseline measured in the same run:
// std::sort of as many random 64-bit keys as the instance has tasks, or one MCL evaluation.
// Graphs come from the pattern generator: periodic stencils, and `random` (six partners a rank).
#include <rankmap/graph/patterns.hpp>
#include <rankmap/mapping/concentration.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/topology/allocation_generators.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>

namespace {

using namespace rankmap;
using topology::Allocation;
using topology::Grid;

graph::CommGraph pattern(const char* name, std::vector<int> dims, TaskId ranks = 0) {
  return graph::make_pattern({.name = name, .dims = std::move(dims), .ranks = ranks, .bytes = 1,
                              .periodic = std::string_view(name).starts_with("stencil"), .seed = 42});
}

struct Instance {
  graph::CommGraph graph;
  Allocation alloc;
};

/// The instances, built once. Names say graph, task count and allocation.
const Instance& instance(const std::string& name) {
  static std::map<std::string, Instance> cache;
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  Instance i;
  if (name == "stencil3d_16k_torus8x8x8_ppn32") {
    i = {pattern("stencil3d", {32, 32, 16}), Allocation::full(Grid::parse("torus:8x8x8"), 32)};
  } else if (name == "random6_16k_torus8x8x8_ppn32") {
    i = {pattern("random", {}, 16384), Allocation::full(Grid::parse("torus:8x8x8"), 32)};
  } else if (name == "empty_1M_torus100x100x100_ppn1") {
    i = {graph::CommGraph::from_edges(1000000, {}), Allocation::full(Grid::parse("torus:100x100x100"), 1)};
  } else if (name == "empty_1M_torus25x25x50_ppn32") {
    i = {graph::CommGraph::from_edges(1000000, {}), Allocation::full(Grid::parse("torus:25x25x50"), 32)};
  } else if (name == "fft2d_2k_torus8x8x8_ppn4") {
    i = {pattern("fft2d", {32, 64}), Allocation::full(Grid::parse("torus:8x8x8"), 4)};
  } else if (name == "recdoubling_8k_torus8x8x8_ppn16") {
    i = {pattern("recdoubling", {}, 8192), Allocation::full(Grid::parse("torus:8x8x8"), 16)};
  } else if (name == "stencil3d_1k_torus8x8x16_ppn1") {
    i = {pattern("stencil3d", {16, 8, 8}), Allocation::full(Grid::parse("torus:8x8x16"), 1)};
  } else if (name == "stencil3d_1k_torus4x4x4_ppn16") {
    i = {pattern("stencil3d", {16, 8, 8}), Allocation::full(Grid::parse("torus:4x4x4"), 16)};
  } else if (name == "stencil27_1k_frag1000") {
    // The quality table's frag-1000 (seed 4): 1,000 scattered nodes of torus:16x24x24.
    const Grid grid = Grid::parse("torus:16x24x24");
    i = {pattern("stencil27", {10, 10, 10}), Allocation::of_nodes(grid, topology::fragmented_nodes(grid, 1000, 4), 1)};
  }
  return cache.emplace(name, std::move(i)).first->second;
}

mapping::MapOptions options_with_budget(double budget_ms) {
  mapping::MapOptions options;
  options.time_budget_ms = budget_ms;
  return options;
}

double mcl(const Instance& in, const mapping::Mapping& m) {
  return metrics::max_channel_load(in.graph, in.alloc, m, *topology::make_routing_model(in.alloc.grid(), "adaptive"));
}

/// Runs a chain; reports its MCL (adaptive) divided by the identity's.
void run_mapper(benchmark::State& state, const std::string& chain, const std::string& name, double budget_ms) {
  const Instance& in = instance(name);
  const mapping::MapOptions options = options_with_budget(budget_ms);
  mapping::Mapping m;
  for (auto _ : state) {
    m = mapping::run_chain(chain, mapping::core_algorithms(), in.graph, in.alloc, options);
    benchmark::DoNotOptimize(m.data());
  }
  if (in.graph.num_edges() > 0)
    state.counters["mcl_vs_identity"] = mcl(in, m) / mcl(in, mapping::identity_mapping(in.graph.num_tasks()));
  state.counters["tasks"] = in.graph.num_tasks();
}

void sort_keys(benchmark::State& state) {
  std::vector<std::uint64_t> keys(static_cast<std::size_t>(state.range(0)));
  std::mt19937_64 rng(1);
  for (auto _ : state) {
    state.PauseTiming();
    for (auto& k : keys) k = rng();
    state.ResumeTiming();
    std::sort(keys.begin(), keys.end());
    benchmark::DoNotOptimize(keys.data());
  }
}

void identity_mcl(benchmark::State& state, const std::string& name) {
  const Instance& in = instance(name);
  const mapping::Mapping identity = mapping::identity_mapping(in.graph.num_tasks());
  const auto routing = topology::make_routing_model(in.alloc.grid(), "adaptive");
  for (auto _ : state) benchmark::DoNotOptimize(metrics::max_channel_load(in.graph, in.alloc, identity, *routing));
}

/// detect_task_grid alone: bisect, emahd and split (and so auto) pay it before they look at the clock.
void task_grid(benchmark::State& state, const std::string& name) {
  const Instance& in = instance(name);
  std::vector<int> grid;
  for (auto _ : state) {
    grid = mapping::detect_task_grid(in.graph);
    benchmark::DoNotOptimize(grid.data());
  }
  state.counters["grid_dims"] = static_cast<double>(grid.size());
}

/// refine from mahd's mapping with a budget of state.range(0) ms: the wall time is the answer.
void refine_budget(benchmark::State& state, const std::string& name) {
  const Instance& in = instance(name);
  const mapping::Mapping start =
      mapping::run_chain("mahd", mapping::core_algorithms(), in.graph, in.alloc, options_with_budget(1e9));
  mapping::MapOptions options = options_with_budget(static_cast<double>(state.range(0)));
  options.initial = &start;
  mapping::Mapping m;
  for (auto _ : state) {
    m = mapping::run_chain("refine", mapping::core_algorithms(), in.graph, in.alloc, options);
    benchmark::DoNotOptimize(m.data());
  }
  state.counters["asked_ms"] = static_cast<double>(state.range(0));
  state.counters["mcl_vs_mahd"] = mcl(in, m) / mcl(in, start);
}

/// refine:N from hilbert's mapping under `objective` (a fixed number of swap attempts, no clock):
/// the swap search's own speed, which a timed search turns into swaps tried within its budget.
void refine_attempts(benchmark::State& state, const std::string& name, mapping::Objective objective) {
  const Instance& in = instance(name);
  mapping::MapOptions options = options_with_budget(1e9);
  const mapping::Mapping start = mapping::run_chain("hilbert", mapping::core_algorithms(), in.graph, in.alloc, options);
  options.initial = &start;
  options.objective = objective;
  mapping::Mapping m;
  for (auto _ : state) {
    m = mapping::run_chain("refine:" + std::to_string(state.range(0)), mapping::core_algorithms(), in.graph, in.alloc,
                           options);
    benchmark::DoNotOptimize(m.data());
  }
  state.counters["mcl_vs_start"] = mcl(in, m) / mcl(in, start);
}

void register_all() {
  using benchmark::kMillisecond;
  for (const char* name : {"stencil3d_16k_torus8x8x8_ppn32", "random6_16k_torus8x8x8_ppn32"}) {
    for (const char* chain : {"mahd", "mahd:direct"})
      benchmark::RegisterBenchmark((std::string("mahd/") + chain + "/" + name).c_str(),
                                   [=](benchmark::State& s) { run_mapper(s, chain, name, 1e9); })
          ->Unit(kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark((std::string("refine/") + name).c_str(),
                                 [=](benchmark::State& s) { refine_budget(s, name); })
        ->Arg(50)->Arg(200)->Arg(1000)->Iterations(3)->Unit(kMillisecond)->UseRealTime();
  }
  for (const char* name : {"empty_1M_torus100x100x100_ppn1", "empty_1M_torus25x25x50_ppn32"})
    benchmark::RegisterBenchmark((std::string("hilbert/") + name).c_str(),
                                 [=](benchmark::State& s) { run_mapper(s, "hilbert", name, 1e9); })
        ->Unit(kMillisecond)->UseRealTime();
  for (const char* name : {"stencil3d_1k_torus8x8x16_ppn1", "stencil3d_1k_torus4x4x4_ppn16"}) {
    benchmark::RegisterBenchmark((std::string("emahd/") + name).c_str(),
                                 [=](benchmark::State& s) { run_mapper(s, "emahd", name, 1e9); })
        ->Iterations(1)->Unit(kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark((std::string("baseline_identity_mcl/") + name).c_str(),
                                 [=](benchmark::State& s) { identity_mcl(s, name); })
        ->Unit(kMillisecond)->UseRealTime();
  }
  // bisect is auto's first member; at 8,192 tasks its run decides whether auto's 200 ms suffice.
  for (const char* name : {"recdoubling_8k_torus8x8x8_ppn16"}) {
    benchmark::RegisterBenchmark((std::string("bisect/") + name).c_str(),
                                 [=](benchmark::State& s) { run_mapper(s, "bisect", name, 1e9); })
        ->Unit(kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark((std::string("baseline_identity_mcl/") + name).c_str(),
                                 [=](benchmark::State& s) { identity_mcl(s, name); })
        ->Unit(kMillisecond)->UseRealTime();
  }
  // A graph on a hypercube-like task grid makes detect_task_grid validate many factorisations.
  for (const char* name : {"recdoubling_8k_torus8x8x8_ppn16", "fft2d_2k_torus8x8x8_ppn4"}) {
    benchmark::RegisterBenchmark((std::string("detect_task_grid/") + name).c_str(),
                                 [=](benchmark::State& s) { task_grid(s, name); })
        ->Unit(kMillisecond)->UseRealTime();
    if (std::string_view(name).starts_with("fft2d"))
      benchmark::RegisterBenchmark((std::string("baseline_identity_mcl/") + name).c_str(),
                                   [=](benchmark::State& s) { identity_mcl(s, name); })
          ->Unit(kMillisecond)->UseRealTime();
  }
  for (const char* name : {"stencil27_1k_frag1000"}) {
    for (const auto& [label, objective] : {std::pair{"hopbytes", mapping::Objective::hop_bytes},
                                           std::pair{"mcl", mapping::Objective::mcl}})
      benchmark::RegisterBenchmark((std::string("refine_attempts/") + label + "/" + name).c_str(),
                                   [=](benchmark::State& s) { refine_attempts(s, name, objective); })
          ->Arg(100000)->Unit(kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark((std::string("baseline_identity_mcl/") + name).c_str(),
                                 [=](benchmark::State& s) { identity_mcl(s, name); })
        ->Unit(kMillisecond)->UseRealTime();
  }
  benchmark::RegisterBenchmark("baseline_sort_keys", sort_keys)
      ->Arg(1024)->Arg(16384)->Arg(1000000)->Unit(kMillisecond)->UseRealTime();
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
