// `rankmap gen`: writes a synthetic communication pattern as a Matrix Market file.
#include <CLI/CLI.hpp>
#include <rankmap/graph/matrix_market.hpp>
#include <rankmap/graph/patterns.hpp>
#include <rankmap/topology/grid.hpp>

#include <iostream>
#include <memory>

namespace rankmap::tools {

namespace {

struct GenOptions {
  std::string pattern;
  TaskId ranks = 0;
  std::string dims;
  double bytes = 1;
  bool periodic = false;
  std::uint64_t seed = 1;
  std::string output;
};

void run_gen(const GenOptions& options) {
  graph::PatternSpec spec;
  spec.name = options.pattern;
  spec.ranks = options.ranks;
  if (!options.dims.empty()) spec.dims = topology::parse_extents(options.dims, "--dims");
  spec.bytes = options.bytes;
  spec.periodic = options.periodic;
  spec.seed = options.seed;
  const graph::CommGraph graph = graph::make_pattern(spec);
  if (options.output == "-") {
    graph::write_matrix_market(std::cout, graph);
    return;
  }
  graph::write_matrix_market(options.output, graph);
  std::cout << "wrote " << options.output << ": " << spec.name << ", " << graph.num_tasks() << " tasks, "
            << graph.num_edges() << " edges, " << graph.total_weight() << " bytes\n";
}

std::string pattern_list() {
  std::string out;
  for (std::string_view name : graph::pattern_names()) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

}  // namespace

void add_gen_command(CLI::App& app) {
  auto options = std::make_shared<GenOptions>();
  auto* gen = app.add_subcommand("gen", "generate a communication pattern as a Matrix Market graph");
  gen->add_option("pattern", options->pattern, "one of: " + pattern_list())->required();
  auto* ranks = gen->add_option("--ranks", options->ranks,
                                "number of ranks; grid patterns use the most balanced process grid");
  auto* dims = gen->add_option("--dims", options->dims, "process-grid extents, e.g. 64x64 or 32x32x16");
  ranks->excludes(dims);
  gen->add_option("--bytes", options->bytes, "bytes per message (default 1)");
  gen->add_flag("--periodic", options->periodic, "stencils: wrap around the process grid");
  gen->add_option("--seed", options->seed, "seed of the random pattern (default 1)");
  gen->add_option("-o,--output", options->output, "output file, or - for standard output")->required();
  gen->callback([options] { run_gen(*options); });
}

}  // namespace rankmap::tools
