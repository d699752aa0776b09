// `rankmap render`: draws the channel loads of one mapping, or two side by side, as an SVG picture.
#include "job_inputs.hpp"
#include "load_svg.hpp"

#include <CLI/CLI.hpp>
#include <rankmap/mapping/mapping_file.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>
#include <rankmap/topology/routing.hpp>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace rankmap::tools {

namespace {

struct RenderOptions {
  JobOptions job;
  std::vector<std::string> mappings;
  std::string routing = "default";
  std::string output;
};

std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string file_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void render(const RenderOptions& options) {
  if (options.mappings.size() > 2)
    throw InputError("--mapping: give one mapping, or two to compare, not " + std::to_string(options.mappings.size()));
  const auto spec = topology::RoutingSpec::parse(options.routing);
  const Job job = load_job(options.job);
  const auto model = topology::make_routing_model(job.alloc.network(), spec);
  std::vector<LoadView> views;
  for (const std::string& path : options.mappings) {
    const mapping::MappingFile file = mapping::read_mapping_file(path);
    mapping::check_mapping_matches(file, job.graph, job.alloc, path);
    LoadView view;
    view.title = file.algorithm + "  [" + file_name(path) + "]";
    view.loads = metrics::channel_loads(job.graph, job.alloc, file.slot_of, *model);
    view.caption = "MCL (" + spec.on(job.alloc.network()).to_string() + ") " + short_number(metrics::max_channel_load(view.loads)) +
                   "    hop-bytes " + short_number(metrics::hop_bytes(job.graph, job.alloc, file.slot_of));
    views.push_back(std::move(view));
  }
  const std::string heading = "Channel loads of " + std::to_string(job.graph.num_tasks()) + " tasks on " +
                              job.alloc.network().to_string() + ", " + std::to_string(job.alloc.num_nodes()) +
                              " nodes, routing " + spec.on(job.alloc.network()).to_string();
  const std::string svg = render_loads_svg(job.alloc.network(), job.alloc.nodes(), views, heading);
  std::ofstream out(options.output, std::ios::binary);
  out << svg;
  out.close();
  if (!out) throw InputError("-o " + options.output + ": cannot write the picture");
}

}  // namespace

void add_render_command(CLI::App& app) {
  auto options = std::make_shared<RenderOptions>();
  auto* command = app.add_subcommand("render", "draw the channel loads of one or two mappings as SVG");
  add_job_options(*command, options->job, false);
  command->add_option("--mapping", options->mappings, "mapping file; give it twice to draw two side by side")
      ->required();
  command->add_option("--routing", options->routing,
                      "routing model: default (the network's own: adaptive on grids, dmodk on fat-trees, minimal on "
                      "dragonflies), adaptive, adaptive-hop, dor, dor:<order> (grids), dmodk (fat-trees), minimal, "
                      "valiant (dragonflies)");
  command->add_option("-o,--output", options->output, "the SVG file to write")->required();
  command->callback([options] { render(*options); });
}

}  // namespace rankmap::tools
