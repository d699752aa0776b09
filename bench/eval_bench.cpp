// Speed of `rankmap eval`'s core: MCL under adaptive routing on large patterns (issue 2), against hop-bytes.
//
// Every instance is measured twice in the same run: the MCL under `adaptive` (aggregation into
// node flows plus routing every flow) and, as the baseline, hop-bytes of the same mapping (one
// pass over the edges). bench/run_eval_bench.sh turns the pair into a ratio, which is what
// stays comparable on a noisy machine.
#include <rankmap/graph/patterns.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>
#include <rankmap/metrics/node_flows.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/topology/allocation.hpp>
#include <rankmap/topology/allocation_generators.hpp>
#include <rankmap/topology/routing.hpp>

#include <benchmark/benchmark.h>

#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <tuple>

namespace {

using namespace rankmap;

/// One evaluation problem: the pattern's graph on the first P slots of the whole machine.
struct Instance {
  graph::CommGraph graph;
  topology::Allocation alloc;
  mapping::Mapping slot_of;
  std::unique_ptr<topology::RoutingModel> adaptive;
};

/// ppn 0 below stands for a fragmented allocation: `tasks` nodes scattered over the grid by this
/// seed (the quality table's frag-1000 is seed 4), one process each.
constexpr std::uint64_t kFragmentSeed = 4;

/// Instances are built once per process and shared by the MCL and the hop-bytes runs.
const Instance& instance(const std::string& pattern, TaskId tasks, const std::string& topology, int ppn) {
  static std::map<std::tuple<std::string, TaskId, std::string, int>, std::unique_ptr<Instance>> cache;
  auto& slot = cache[{pattern, tasks, topology, ppn}];
  if (!slot) {
    slot = std::make_unique<Instance>();
    graph::PatternSpec spec;
    spec.name = pattern;
    spec.ranks = tasks;
    slot->graph = graph::make_pattern(spec);
    const auto grid = topology::Grid::parse(topology);
    slot->alloc = ppn > 0 ? topology::Allocation::full(grid, ppn).first_slots(tasks)
                          : topology::Allocation::of_nodes(grid, topology::fragmented_nodes(grid, tasks, kFragmentSeed), 1);
    slot->slot_of = mapping::identity_mapping(tasks);
    slot->adaptive = topology::make_routing_model(grid, "adaptive");
  }
  return *slot;
}

void report(benchmark::State& state, const Instance& inst, double value) {
  state.counters["tasks"] = inst.graph.num_tasks();
  state.counters["edges"] = static_cast<double>(inst.graph.num_edges());
  state.counters["value"] = value;
}

void mcl_adaptive(benchmark::State& state, const std::string& pattern, const std::string& topology, int ppn) {
  const Instance& inst = instance(pattern, static_cast<TaskId>(state.range(0)), topology, ppn);
  double mcl = 0;
  for (auto _ : state) {
    mcl = metrics::max_channel_load(inst.graph, inst.alloc, inst.slot_of, *inst.adaptive);
    benchmark::DoNotOptimize(mcl);
  }
  report(state, inst, mcl);
}

// What the first scoring of a call costs (`rankmap map`, a runtime decision): its routing model is new,
// so every route pattern is built anew, and on a fragmented allocation nearly every flow has an offset
// of its own. Later scorings in the same call share the model and its patterns.
void mcl_adaptive_cold(benchmark::State& state, const std::string& pattern, const std::string& topology, int ppn) {
  const Instance& inst = instance(pattern, static_cast<TaskId>(state.range(0)), topology, ppn);
  const auto grid = topology::Grid::parse(topology);
  double mcl = 0;
  for (auto _ : state) {
    const auto routing = topology::make_routing_model(grid, "adaptive");
    mcl = metrics::max_channel_load(inst.graph, inst.alloc, inst.slot_of, *routing);
    benchmark::DoNotOptimize(mcl);
  }
  report(state, inst, mcl);
}

void hop_bytes(benchmark::State& state, const std::string& pattern, const std::string& topology, int ppn) {
  const Instance& inst = instance(pattern, static_cast<TaskId>(state.range(0)), topology, ppn);
  double hb = 0;
  for (auto _ : state) {
    hb = metrics::hop_bytes(inst.graph, inst.alloc, inst.slot_of);
    benchmark::DoNotOptimize(hb);
  }
  report(state, inst, hb);
}

// Aggregating the edges into node flows alone: the part of a scoring that cannot be stopped.
void node_flows(benchmark::State& state, const std::string& pattern, const std::string& topology, int ppn) {
  const Instance& inst = instance(pattern, static_cast<TaskId>(state.range(0)), topology, ppn);
  std::size_t flows = 0;
  for (auto _ : state) {
    flows = metrics::node_flows(inst.graph, inst.alloc, inst.slot_of).size();
    benchmark::DoNotOptimize(flows);
  }
  report(state, inst, static_cast<double>(flows));
}

// Threads routing short flows (offsets of at most 2 per dimension, as a refine's swaps route
// them) on one shared model against a model each: the shared model's patterns must be read without
// contention. Both warm their caches first; the ratio of the two at 2 threads is the cost of sharing.
void short_flows(benchmark::State& state, bool shared) {
  const auto grid = topology::Grid::parse("torus:16x24x24");
  static const std::shared_ptr<const topology::RoutingModel> one =
      topology::shared_routing_model(topology::Network(grid), topology::RoutingSpec::parse("adaptive"));
  const std::shared_ptr<const topology::RoutingModel> model =
      shared ? one : std::shared_ptr<const topology::RoutingModel>(topology::make_routing_model(grid, "adaptive"));
  std::vector<double> loads(grid.num_channel_slots(), 0.0);
  const auto route_all = [&] {
    for (NodeId src = 0; src < grid.num_nodes(); ++src)
      for (int k = 1; k < 12; ++k) {  // offsets (k >> d) % 3, none of them zero in every dimension
        topology::Coords c = grid.coords_of(src);
        for (int d = 0; d < 3; ++d) c[d] = (c[d] + (k >> d) % 3) % grid.extent(d);
        model->add_flow(src, grid.node_at(std::span<const int>(c.data(), 3)), 1.0, loads);
      }
  };
  route_all();
  for (auto _ : state) {
    route_all();
    benchmark::DoNotOptimize(loads.data());
  }
  state.counters["flows"] = benchmark::Counter(11.0 * grid.num_nodes(), benchmark::Counter::kIsIterationInvariantRate);
}

// The targets: 16,384 tasks on torus:4x4x4x4x2 with ppn 32 (the whole machine).
constexpr char kBgq[] = "torus:4x4x4x4x2";
// Growth: 16k to 131k tasks on the first nodes of torus:16x16x16x8x2 with ppn 16.
constexpr char kLarge[] = "torus:16x16x16x8x2";

// The quality table's fragmented allocations are cut from it.
constexpr char kFragmentGrid[] = "torus:16x24x24";

void register_pair(const std::string& pattern, const char* topology, int ppn, std::initializer_list<TaskId> sizes) {
  const std::string suffix = "/" + pattern + "/" + topology + "/ppn" + std::to_string(ppn);
  const bool cold = ppn == 0;
  for (auto* b : {benchmark::RegisterBenchmark(((cold ? "mcl_adaptive_cold" : "mcl_adaptive") + suffix).c_str(),
                                               cold ? mcl_adaptive_cold : mcl_adaptive, pattern, topology, ppn),
                  benchmark::RegisterBenchmark(("hop_bytes" + suffix).c_str(), hop_bytes, pattern, topology, ppn)}) {
    b->Unit(benchmark::kMillisecond);
    for (TaskId n : sizes) b->Arg(n);
  }
}

void register_all() {
  for (const char* pattern : {"stencil27", "nas-cg"}) {
    register_pair(pattern, kBgq, 32, {16384});
    register_pair(pattern, kLarge, 16, {16384, 32768, 65536, 131072});
  }
  for (const char* pattern : {"stencil27", "random"}) register_pair(pattern, kFragmentGrid, 0, {1000});
  // Dense traffic, where many flows share each destination: flows are walked together there.
  register_pair("random", kBgq, 32, {16384});
  register_pair("fft2d", kFragmentGrid, 0, {2000});
  for (const auto& [pattern, topology, ppn, tasks] : {std::tuple{"alltoall", kFragmentGrid, 0, 1000},
                                                      std::tuple{"fft2d", kFragmentGrid, 0, 2000},
                                                      std::tuple{"random", kBgq, 32, 16384}}) {
    const std::string suffix = std::string("/") + pattern + "/" + topology + "/ppn" + std::to_string(ppn);
    benchmark::RegisterBenchmark(("node_flows" + suffix).c_str(), node_flows, pattern, topology, ppn)
        ->Unit(benchmark::kMillisecond)
        ->Arg(tasks);
  }
  for (bool shared : {false, true})
    benchmark::RegisterBenchmark(shared ? "short_flows/shared_model" : "short_flows/model_per_thread", short_flows,
                                 shared)
        ->Unit(benchmark::kMillisecond)
        ->Threads(1)
        ->Threads(2)
        ->UseRealTime();
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
