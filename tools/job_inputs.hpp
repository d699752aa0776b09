// What subcommands share: the options that name a job's graph, machine, allocation and mapping, and loading them.
#pragma once

#include <CLI/CLI.hpp>
#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/mapping/mapping_file.hpp>
#include <rankmap/topology/allocation.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rankmap::tools {

/// The values of --graph, --phases, --topology, --alloc-file, --ppn and --mapping.
struct JobOptions {
  std::string graph;
  std::vector<std::string> phases;
  std::string topology;
  std::string alloc_file;
  int ppn = 0;
  std::string mapping;
};

/// Adds --graph (required), --topology | --alloc-file (one of them), --ppn and, when
/// `with_mapping`, --mapping to `command`.
void add_job_options(CLI::App& command, JobOptions& options, bool with_mapping);

/// Adds --phases, for the commands that measure MCL.
void add_phases_option(CLI::App& command, JobOptions& options);

/// Adds --topology | --alloc-file (one of them) and --ppn, the allocation part of the job options.
void add_allocation_options(CLI::App& command, JobOptions& options);

/// The whole allocation the options name (not truncated to any task count).
topology::Allocation load_allocation(const JobOptions& options);

/// A loaded job: the graph, the allocation truncated to the graph's task count, and the
/// mapping file if one was given (already checked against both).
struct Job {
  graph::CommGraph graph;
  std::vector<graph::CommGraph> phases;  ///< of --phases, each with the graph's task count
  topology::Allocation alloc;
  std::optional<mapping::MappingFile> mapping;
};

/// Loads everything the options name. Throws InputError naming the flag or file at fault,
/// e.g. a graph with more tasks than the allocation has slots.
Job load_job(const JobOptions& options);

}  // namespace rankmap::tools
