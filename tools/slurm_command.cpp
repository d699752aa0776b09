// `rankmap slurm`: a network allocation file of a Slurm job from topology.conf (or scontrol's output) and its node list.
#include <CLI/CLI.hpp>

#include <rankmap/topology/allocation_file.hpp>
#include <rankmap/topology/hostlist.hpp>
#include <rankmap/topology/slurm_topology.hpp>

#include <fstream>
#include <iostream>
#include <unordered_map>

namespace rankmap::tools {

namespace {

struct SlurmOptions {
  std::string topology;
  std::string nodes;
  int slots = 0;
  std::string output;
};

void write_slurm_allocation(const SlurmOptions& options) {
  const topology::SlurmTree tree = topology::slurm_tree(topology::read_slurm_topology(options.topology), options.topology);
  std::unordered_map<std::string, NodeId> node_of_host;
  for (std::size_t i = 0; i < tree.hosts.size(); ++i) node_of_host.emplace(tree.hosts[i], tree.nodes[i]);
  topology::AllocationFile file;
  file.network = tree.network;
  // Without --nodes, the whole machine in the file's order.
  const std::vector<std::string> hosts = options.nodes.empty() ? tree.hosts : topology::expand_hostlist(options.nodes, "--nodes");
  for (const std::string& host : hosts) {
    const auto it = node_of_host.find(host);
    if (it == node_of_host.end())
      throw InputError("--nodes: node '" + host + "' is under no leaf switch of " + options.topology);
    file.nodes.push_back({host, it->second, options.slots, 0});
  }
  if (options.output.empty() || options.output == "-") {
    topology::write_allocation_file(std::cout, file);
  } else {
    std::ofstream out(options.output);
    topology::write_allocation_file(out, file);
    out.close();
    if (!out) throw InputError("-o " + options.output + ": cannot write the allocation file");
  }
}

}  // namespace

void add_slurm_command(CLI::App& app) {
  auto options = std::make_shared<SlurmOptions>();
  auto* command = app.add_subcommand(
      "slurm", "a network allocation file (a fat-tree) of a Slurm job from topology.conf or `scontrol show topology`");
  command->add_option("--topology", options->topology, "Slurm's topology.conf, or the output of `scontrol show topology`")
      ->required();
  command->add_option("--nodes", options->nodes,
                      "the job's nodes as a hostlist, e.g. \"$SLURM_JOB_NODELIST\" (default: every node of the tree)");
  command->add_option("--slots", options->slots, "processes per node, written as slots=N (default: left to --ppn)")
      ->check(CLI::Range(1, 1 << 16));
  command->add_option("-o,--output", options->output, "file to write (default: standard output)");
  command->callback([options] { write_slurm_allocation(*options); });
}

}  // namespace rankmap::tools
