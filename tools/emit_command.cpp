// `rankmap emit`: a launcher placement file that starts every rank where a mapping file puts it.
#include "job_inputs.hpp"

#include <CLI/CLI.hpp>
#include <rankmap/launch/launcher_file.hpp>
#include <rankmap/topology/allocation_file.hpp>

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

/// The name of every node the mapping's tasks run on, in node order: --hosts, else the allocation
/// file's host names, else (SMPI only) the hosts of a SimGrid cluster (TORUS, FAT_TREE or
/// DRAGONFLY). --hosts and the allocation file name every node of `whole`; the mapping may use only
/// its first nodes, `alloc`.
std::vector<std::string> host_names(const EmitOptions& options, launch::LauncherFormat format,
                                    const topology::Allocation& whole, const topology::Allocation& alloc) {
  if (!launch::needs_host_names(format)) return {};
  std::vector<std::string> hosts;
  if (!options.hosts.empty()) {
    hosts = launch::read_host_list(options.hosts);
    if (static_cast<int>(hosts.size()) != whole.num_nodes())
      throw InputError(options.hosts + ": " + std::to_string(hosts.size()) + " host names for the " +
                       std::to_string(whole.num_nodes()) +
                       " nodes of the allocation; give one per node, in node order");
  } else if (!options.job.alloc_file.empty()) {
    for (const auto& node : topology::read_allocation_file(options.job.alloc_file).nodes) hosts.push_back(node.host);
  } else if (format == launch::LauncherFormat::smpi_hostfile) {
    return launch::simgrid_host_names(alloc, options.prefix);
  } else {
    throw InputError("--format " + options.format +
                     " needs host names: give --hosts FILE (one per node) or --alloc-file");
  }
  hosts.resize(static_cast<std::size_t>(alloc.num_nodes()));
  return hosts;
}

void emit(const EmitOptions& options) {
  const launch::LauncherFormat format = launch::parse_launcher_format(options.format);
  const mapping::MappingFile mapping = mapping::read_mapping_file(options.job.mapping);
  const topology::Allocation whole = load_allocation(options.job);
  const topology::Allocation alloc = launch::allocation_of_mapping(mapping, whole, options.job.mapping);
  const std::vector<std::string> hosts = host_names(options, format, whole, alloc);
  if (options.output.empty() || options.output == "-")
    launch::write_launcher_file(std::cout, format, alloc, mapping.slot_of, hosts);
  else
    launch::write_launcher_file(options.output, format, alloc, mapping.slot_of, hosts);
}

}  // namespace

void add_emit_command(CLI::App& app) {
  auto options = std::make_shared<EmitOptions>();
  auto* command = app.add_subcommand(
      "emit",
      "a launcher placement file (rankfile, host file, map file) that starts each rank where a mapping puts it");
  command->add_option("--mapping", options->job.mapping, "mapping file, from `rankmap map` or RANKMAP_DUMP")
      ->required();
  command->add_option("--format", options->format, "one of " + launch::launcher_format_names())->required();
  add_allocation_options(*command, options->job);
  command->add_option("--hosts", options->hosts,
                      "file with one host name per allocated node, in node order (default: the --alloc-file host "
                      "names; for smpi-hostfile with --topology, the SimGrid cluster's names)");
  command->add_option("--prefix", options->prefix, "host name prefix of the SimGrid cluster's names (default n)");
  command->add_option("-o,--output", options->output, "file to write (default: standard output)");
  command->callback([options] { emit(*options); });
}

}  // namespace rankmap::tools
