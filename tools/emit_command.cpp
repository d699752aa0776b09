// `rankmap emit`: a launcher placement file that starts every rank where a mapping file puts it.
#include "job_inputs.hpp"

#include <CLI/CLI.hpp>
#include <rankmap/launch/launcher_file.hpp>
#include <rankmap/topology/coordinate_file.hpp>

#include <iostream>
#include <memory>

namespace rankmap::tools {

namespace {

struct EmitOptions {
  JobOptions job;
  std::string format;
  std::string hosts;
  std::string prefix = "n";
  std::string output;
};

/// The name of every allocated node, in node order: --hosts, else the coordinate file's host
/// names, else (SMPI only) the hosts of a SimGrid TORUS cluster.
std::vector<std::string> host_names(const EmitOptions& options, launch::LauncherFormat format,
                                    const topology::Allocation& alloc) {
  if (!launch::needs_host_names(format)) return {};
  if (!options.hosts.empty()) return launch::read_host_list(options.hosts);
  if (!options.job.alloc_file.empty()) {
    std::vector<std::string> hosts;
    for (const auto& node : topology::read_coordinate_file(options.job.alloc_file).nodes) hosts.push_back(node.host);
    hosts.resize(static_cast<std::size_t>(alloc.num_nodes()));  // the nodes the mapping's tasks reach
    return hosts;
  }
  if (format == launch::LauncherFormat::smpi_hostfile) return launch::simgrid_host_names(alloc, options.prefix);
  throw InputError("--format " + options.format + " needs host names: give --hosts FILE (one per node) or --alloc-file");
}

void emit(const EmitOptions& options) {
  const launch::LauncherFormat format = launch::parse_launcher_format(options.format);
  const mapping::MappingFile mapping = mapping::read_mapping_file(options.job.mapping);
  const topology::Allocation alloc =
      launch::allocation_of_mapping(mapping, load_allocation(options.job), options.job.mapping);
  const std::vector<std::string> hosts = host_names(options, format, alloc);
  if (options.output.empty() || options.output == "-")
    launch::write_launcher_file(std::cout, format, alloc, mapping.slot_of, hosts);
  else
    launch::write_launcher_file(options.output, format, alloc, mapping.slot_of, hosts);
}

}  // namespace

void add_emit_command(CLI::App& app) {
  auto options = std::make_shared<EmitOptions>();
  auto* command = app.add_subcommand(
      "emit", "a launcher placement file (rankfile, host file, map file) that starts each rank where a mapping puts it");
  command->add_option("--mapping", options->job.mapping, "mapping file, from `rankmap map` or RANKMAP_DUMP")
      ->required();
  command->add_option("--format", options->format, "one of " + launch::launcher_format_names())->required();
  add_allocation_options(*command, options->job);
  command->add_option("--hosts", options->hosts,
                      "file with one host name per allocated node, in node order (default: the --alloc-file host "
                      "names; for smpi-hostfile with --topology, SimGrid TORUS names)");
  command->add_option("--prefix", options->prefix, "host name prefix of the SimGrid TORUS names (default n)");
  command->add_option("-o,--output", options->output, "file to write (default: standard output)");
  command->callback([options] { emit(*options); });
}

}  // namespace rankmap::tools
