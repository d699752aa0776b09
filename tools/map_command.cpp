// `rankmap map`: computes a mapping with any algorithm or chain and writes the mapping file of DESIGN.md §8.
#include "job_inputs.hpp"

#include <CLI/CLI.hpp>
#include <rankmap/hash.hpp>
#include <rankmap/mapping/mapping_file.hpp>
#include <rankmap/mapping/offline.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>
#include <rankmap/topology/routing.hpp>

#include <chrono>
#include <cstdio>
#include <memory>

namespace rankmap::tools {

namespace {

struct MapCommandOptions {
  JobOptions job;
  std::string algorithm;
  std::string objective = "mcl";
  std::string routing = "adaptive";
  double time_budget_ms = 10000;
  std::uint64_t seed = 1;
  int threads = 1;
  int beam = 64;
  std::string output;
};

std::string algorithm_names() {
  std::string names;
  for (const mapping::AlgorithmInfo& a : mapping::all_algorithms()) names += (names.empty() ? "" : ", ") + std::string(a.name);
  return names;
}

/// Refuses an unknown stage before any file is read, listing the names that exist.
void check_algorithm(const std::string& chain) {
  for (std::size_t pos = 0; pos <= chain.size();) {
    const std::size_t end = std::min(chain.find('+', pos), chain.size());
    const std::string stage = chain.substr(pos, end - pos);
    if (!mapping::find_algorithm(mapping::all_algorithms(), stage))
      throw InputError("--algo: '" + stage + "' is not an algorithm; known: " + algorithm_names());
    pos = end + 1;
  }
}

void run_map(const MapCommandOptions& o) {
  check_algorithm(o.algorithm);
  mapping::MapOptions options;
  options.objective = mapping::parse_objective(o.objective);
  options.routing = topology::RoutingSpec::parse(o.routing);
  if (!(o.time_budget_ms >= 0)) throw InputError("--time-budget-ms must be at least 0");
  if (o.threads < 1) throw InputError("--threads must be at least 1");
  if (o.beam < 1) throw InputError("--beam must be at least 1");
  options.time_budget_ms = o.time_budget_ms;
  options.seed = o.seed;
  options.threads = o.threads;
  options.beam = o.beam;
  const Job job = load_job(o.job);
  if (job.mapping) options.initial = &job.mapping->slot_of;

  const auto model = topology::make_routing_model(job.alloc.grid(), options.routing);
  const auto score = [&](const mapping::Mapping& m) {
    return options.objective == mapping::Objective::mcl ? metrics::max_channel_load(job.graph, job.alloc, m, *model)
                                                        : metrics::hop_bytes(job.graph, job.alloc, m);
  };
  const double before = score(mapping::identity_mapping(job.graph.num_tasks()));
  const auto start = std::chrono::steady_clock::now();
  mapping::Mapping slot_of = mapping::run_chain(o.algorithm, mapping::all_algorithms(), job.graph, job.alloc, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double after = score(slot_of);

  mapping::MappingFile file;
  file.tasks = job.graph.num_tasks();
  file.graph_hash = job.graph.canonical_hash();
  file.allocation_hash = job.alloc.hash();
  file.algorithm = o.algorithm;
  file.objective = after;
  file.slot_of = std::move(slot_of);
  mapping::write_mapping_file(o.output, file);

  const std::string objective = options.objective == mapping::Objective::mcl ? "mcl (" + options.routing.to_string() + ")"
                                                                              : std::string("hopbytes");
  std::printf("algorithm  %s\n", o.algorithm.c_str());
  std::printf("objective  %s\n", objective.c_str());
  std::printf("before     %.10g (identity)\n", before);
  if (job.mapping) std::printf("initial    %.10g (%s)\n", score(job.mapping->slot_of), o.job.mapping.c_str());
  std::printf("after      %.10g\n", after);
  std::printf("ratio      %.6g\n", before > 0 ? after / before : 1.0);
  std::printf("time_s     %.3f\n", seconds);
  std::printf("wrote      %s\n", o.output.c_str());
}

}  // namespace

void add_map_command(CLI::App& app) {
  auto options = std::make_shared<MapCommandOptions>();
  auto* map = app.add_subcommand("map", "compute a mapping with an algorithm or a chain (a+b) and write a mapping file");
  add_job_options(*map, options->job, true);
  map->get_option("--mapping")->description("mapping file the first stage starts from (e.g. --algo refine); must match");
  map->add_option("--algo", options->algorithm, "algorithm or chain, e.g. mahd+refine; known: " + algorithm_names())
      ->required();
  map->add_option("--objective", options->objective, "mcl (default) or hopbytes");
  map->add_option("--routing", options->routing, "routing model MCL is measured under: adaptive (default), adaptive-hop, dor");
  map->add_option("--time-budget-ms", options->time_budget_ms, "time budget of the whole chain (default 10000)");
  map->add_option("--seed", options->seed, "random seed (default 1)");
  map->add_option("--threads", options->threads, "threads for algorithms that use them (default 1)");
  map->add_option("--beam", options->beam, "beam width of merging searches such as rahtm (default 64)");
  map->add_option("-o,--output", options->output, "mapping file to write")->required();
  map->callback([options] { run_map(*options); });
}

}  // namespace rankmap::tools
