// Loading a job from the shared options: graph file, --topology or --alloc-file with --ppn, mapping file.
#include "job_inputs.hpp"

#include <rankmap/graph/graph_file.hpp>
#include <rankmap/topology/allocation_file.hpp>
#include <rankmap/topology/network.hpp>

namespace rankmap::tools {

namespace {

std::string describe(const JobOptions& options) {
  if (!options.topology.empty()) return options.topology + " with ppn " + std::to_string(options.ppn);
  return options.alloc_file;
}

}  // namespace

topology::Allocation load_allocation(const JobOptions& options) {
  if (options.topology.empty() == options.alloc_file.empty())
    throw InputError("give exactly one of --topology and --alloc-file");
  if (!options.topology.empty()) {
    if (options.ppn < 1) throw InputError("--ppn must be at least 1 with --topology");
    return topology::Allocation::full(topology::Network::parse(options.topology), options.ppn);
  }
  if (options.ppn < 0) throw InputError("--ppn must be at least 1");
  // Without --ppn every node line of the file must say slots=N.
  return topology::allocation_of(topology::read_allocation_file(options.alloc_file), options.ppn);
}

void add_job_options(CLI::App& command, JobOptions& options, bool with_mapping) {
  command.add_option("--graph", options.graph,
                     "communication graph: Matrix Market (.mtx), METIS (.graph), dense CSV matrix (.csv), or an "
                     "Open MPI pml monitoring profile set (prefix DIR/app, one DIR/app.<rank>.prof, or DIR)")
      ->required();
  add_allocation_options(command, options);
  if (with_mapping)
    command.add_option("--mapping", options.mapping,
                       "mapping file to evaluate instead of the identity; must match the graph and allocation");
}

void add_phases_option(CLI::App& command, JobOptions& options) {
  command
      .add_option("--phases", options.phases,
                  "the graph's communication as phases that run one after another (e.g. the x, y and z sweeps "
                  "of NAS BT), one graph file each, comma-separated: MCL becomes the sum of the phases' MCLs")
      ->delimiter(',');
}

void add_allocation_options(CLI::App& command, JobOptions& options) {
  auto* topology = command.add_option("--topology", options.topology,
                                      "the whole machine as the allocation, e.g. torus:4x4x4x4x2, mesh:8x8x16, "
                                      "grid:4x4x2:torus=110, fattree:2;4,4;1,2;1,2 or dragonfly:3,1;2,1;4,1;2; slots in "
                                      "node order (row-major on a grid, SimGrid's host order otherwise)");
  auto* alloc = command.add_option("--alloc-file", options.alloc_file,
                                   "allocation file: a coordinate file (a `grid ...` line, then one `node HOST C0 C1 ... "
                                   "[slots=N]` line per allocated node) or, on a fat-tree or dragonfly, a `network SPEC` "
                                   "line, then one `node HOST INDEX [slots=N]` line per node; nodes in slot order");
  topology->excludes(alloc);
  command.add_option("--ppn", options.ppn,
                     "processes per node (with --alloc-file: for node lines without slots=N)");
}

Job load_job(const JobOptions& options) {
  Job job;
  job.graph = graph::read_graph_file(options.graph);
  const topology::Allocation whole = load_allocation(options);
  const TaskId tasks = job.graph.num_tasks();
  if (tasks < 1) throw InputError(options.graph + ": the graph has no tasks");
  if (tasks > whole.num_slots())
    throw InputError(options.graph + ": the graph has " + std::to_string(tasks) + " tasks but the allocation (" +
                     describe(options) + ") has only " + std::to_string(whole.num_slots()) + " slots");
  job.alloc = tasks == whole.num_slots() ? whole : whole.first_slots(tasks);
  for (const std::string& path : options.phases) {
    job.phases.push_back(graph::read_graph_file(path));
    if (job.phases.back().num_tasks() != tasks)
      throw InputError(path + ": the phase has " + std::to_string(job.phases.back().num_tasks()) +
                       " tasks but the graph (" + options.graph + ") " + std::to_string(tasks));
  }
  if (!options.mapping.empty()) {
    job.mapping = mapping::read_mapping_file(options.mapping);
    mapping::check_mapping_matches(*job.mapping, job.graph, job.alloc, options.mapping);
  }
  return job;
}

}  // namespace rankmap::tools
