// `rankmap place`: from a RANKMAP_PROFILE profile to a launcher file that starts each rank where it talks best.
#include "mapping_options.hpp"

#include <CLI/CLI.hpp>
#include <rankmap/graph/matrix_market.hpp>
#include <rankmap/graph/profile_summary.hpp>
#include <rankmap/launch/launcher_file.hpp>
#include <rankmap/mapping/acceptance.hpp>
#include <rankmap/mapping/mapping_file.hpp>
#include <rankmap/mapping/offline.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>
#include <rankmap/topology/allocation_file.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

namespace rankmap::tools {

namespace {

struct PlaceCommand {
  std::string profile;
  std::string format;
  std::string output;
  std::string hosts;
  std::string prefix = "n";
  std::string mapping_output;
  std::string min_gain;
  bool no_phases = false;
  std::string phases_as;  ///< objective or hedge; empty: from PREFIX.summary's phase_rule
  MappingCommandOptions mapping;
};

/// A profile as RANKMAP_PROFILE wrote it: the graph, its phases, the allocation in the launcher's
/// order, where the launcher put each rank on it, and the host of each node.
struct Profile {
  graph::CommGraph graph;
  std::vector<graph::CommGraph> phases;
  graph::PhaseOrigin phase_origin = graph::PhaseOrigin::unstated;  ///< PREFIX.summary's phase_rule
  topology::Allocation alloc;
  mapping::Mapping launcher;
  std::vector<std::string> hosts;
};

bool exists(const std::string& path) { return std::filesystem::exists(path); }

std::vector<graph::CommGraph> recorded_phases(const std::string& prefix, TaskId tasks) {
  std::vector<graph::CommGraph> phases;
  for (int k = 1;; ++k) {
    const std::string path = prefix + ".phase" + std::to_string(k) + ".mtx";
    if (!exists(path)) return phases;
    phases.push_back(graph::read_matrix_market(path));
    if (phases.back().num_tasks() != tasks)
      throw InputError(path + ": the phase has " + std::to_string(phases.back().num_tasks()) +
                       " processes but the profile " + std::to_string(tasks));
  }
}

/// --hosts, else PREFIX.hosts, else the allocation file's names; one per node.
std::vector<std::string> node_hosts(const PlaceCommand& o, const topology::AllocationFile& coords) {
  const std::string recorded = o.profile + ".hosts";
  std::vector<std::string> hosts;
  if (!o.hosts.empty())
    hosts = launch::read_host_list(o.hosts);
  else if (exists(recorded))
    hosts = launch::read_host_list(recorded);
  else
    for (const auto& node : coords.nodes) hosts.push_back(node.host);
  if (hosts.size() != coords.nodes.size())
    throw InputError((o.hosts.empty() ? recorded : o.hosts) + ": " + std::to_string(hosts.size()) +
                     " host names for the " + std::to_string(coords.nodes.size()) + " nodes of " + o.profile +
                     ".coords; give one per node, in node order");
  return hosts;
}

Profile load_profile(const PlaceCommand& o) {
  Profile p;
  p.graph = graph::read_matrix_market(o.profile + ".mtx");
  const topology::AllocationFile coords = topology::read_allocation_file(o.profile + ".coords");
  p.alloc = topology::allocation_of(coords, 1);
  if (p.graph.num_tasks() != p.alloc.num_slots())
    throw InputError(o.profile + ".mtx: the profile has " + std::to_string(p.graph.num_tasks()) + " processes but " +
                     o.profile + ".coords " + std::to_string(p.alloc.num_slots()) + " slots");
  if (!o.no_phases) p.phases = recorded_phases(o.profile, p.graph.num_tasks());
  if (exists(o.profile + ".summary")) p.phase_origin = graph::read_phase_origin(o.profile + ".summary");
  const std::string launch_map = o.profile + ".launch.map";
  if (exists(launch_map)) {
    mapping::MappingFile file = mapping::read_mapping_file(launch_map);
    mapping::check_mapping_matches(file, p.graph, p.alloc, launch_map);
    p.launcher = std::move(file.slot_of);
  } else {
    p.launcher = mapping::identity_mapping(p.graph.num_tasks());
  }
  p.hosts = node_hosts(o, coords);
  return p;
}

/// --min-gain, else RANKMAP_MIN_GAIN as the runtime reads it, else 0.02.
double min_gain(const PlaceCommand& o) {
  std::string text = o.min_gain;
  std::string name = "--min-gain";
  if (text.empty()) {
    const char* env = std::getenv("RANKMAP_MIN_GAIN");
    if (!env) return 0.02;
    text = env;
    name = "RANKMAP_MIN_GAIN";
  }
  double gain = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), gain);
  if (ec != std::errc{} || end != text.data() + text.size() || !(gain >= 0 && gain < 1))
    throw InputError(name + ": '" + text + "': expected a fraction from 0 up to (not including) 1");
  return gain;
}

/// A host file gives only each rank's node; the launcher then numbers the ranks of a node in file
/// order. The mapping is made to say the same (no network metric changes: tasks keep their nodes).
mapping::Mapping in_host_file_order(const topology::Allocation& alloc, mapping::Mapping slot_of) {
  std::vector<std::size_t> used(static_cast<std::size_t>(alloc.num_nodes()), 0);
  for (SlotId& s : slot_of) {
    const int node = alloc.node_index_of_slot(s);
    s = alloc.slots_of_node(node)[used[static_cast<std::size_t>(node)]++];
  }
  return slot_of;
}

std::string launch_hint(launch::LauncherFormat format, const std::string& file) {
  switch (format) {
    case launch::LauncherFormat::openmpi_rankfile:
      return "mpirun --rankfile " + file + " ./app";
    case launch::LauncherFormat::mpich_hostfile:
      return "mpiexec -f " + file + " ./app";
    case launch::LauncherFormat::slurm_hostfile:
      return "SLURM_HOSTFILE=" + file + " srun --distribution=arbitrary ./app";
    case launch::LauncherFormat::smpi_hostfile:
      return "smpirun -hostfile " + file + " ./app";
    case launch::LauncherFormat::bgq_mapfile:
      return "runjob --mapping " + file + " ./app";
  }
  return "";
}

/// How the phases were used, for the profile line. Hedge phases go unused under hop-bytes, which
/// the user should see.
std::string phases_note(const Profile& p, const mapping::MapOptions& options, const mapping::AcceptanceTest& test) {
  if (p.phases.empty()) return "";
  const std::string_view origin = graph::to_string(p.phase_origin);
  const std::string found = origin.empty() ? "" : " found by " + std::string(origin);
  const char* use = !options.phases.empty() ? ", scored on them"
                    : test.check_dor        ? ", a hedge only: scored on the whole graph"
                                            : ", unused: the hedge needs the MCL objective";
  return ", " + std::to_string(p.phases.size()) + " phases" + found + use;
}

void print_change(const char* name, double before, double after) {
  std::printf("%-10s %.10g -> %.10g (ratio %.4g)\n", name, before, after, before > 0 ? after / before : 1.0);
}

void run_place(const PlaceCommand& o) {
  const launch::LauncherFormat format = launch::parse_launcher_format(o.format);
  mapping::MapOptions options = map_options_of(o.mapping);
  const double gain_needed = min_gain(o);
  const Profile p = load_profile(o);
  const bool objective_phases =
      o.phases_as.empty() ? graph::phases_are_objective(p.phase_origin) : o.phases_as == "objective";
  (objective_phases ? options.phases : options.hedge_phases) = p.phases;
  options.initial = &p.launcher;
  mapping::Choice choice;
  options.choice = &choice;
  const ObjectiveMeter objective(options, p.graph, p.alloc, options.phases);

  const mapping::Mapping candidate =
      mapping::run_chain(o.mapping.algorithm, mapping::all_algorithms(), p.graph, p.alloc, options);
  // auto compares with the identity; when that is the profile's launcher order, it has scored and
  // routed both mappings already, and each routing of a dense graph can take seconds.
  const bool measured =
      mapping::is_identity(p.launcher) && choice.objectives && !std::isnan(choice.objectives->launcher);
  const double before = measured ? choice.objectives->launcher : objective(p.launcher);
  const double after = measured ? choice.objectives->chosen : objective(candidate);
  mapping::AcceptanceTest test = mapping::acceptance_test(options, p.alloc.network(), before, after, gain_needed);
  if (measured) test.known_dor = choice.dor_loads;
  const std::string refusal = mapping::refusal_of(test, p.graph, p.alloc, candidate, p.launcher);
  const bool placed = refusal.empty();
  mapping::Mapping chosen = placed ? candidate : p.launcher;
  const bool host_file =
      format != launch::LauncherFormat::openmpi_rankfile && format != launch::LauncherFormat::bgq_mapfile;
  if (host_file) chosen = in_host_file_order(p.alloc, std::move(chosen));

  const std::vector<std::string> hosts = format == launch::LauncherFormat::smpi_hostfile && o.hosts.empty()
                                             ? launch::simgrid_host_names(p.alloc, o.prefix)
                                             : p.hosts;
  launch::write_launcher_file(o.output, format, p.alloc, chosen, hosts);
  if (!o.mapping_output.empty()) {
    mapping::MappingFile file;
    file.tasks = p.graph.num_tasks();
    file.graph_hash = p.graph.canonical_hash();
    file.allocation_hash = p.alloc.hash();
    file.algorithm = placed ? algorithm_label(o.mapping.algorithm, choice) : "launcher";
    file.objective = objective(chosen);
    file.slot_of = chosen;
    mapping::write_mapping_file(o.mapping_output, file);
  }

  const auto model = topology::make_routing_model(p.alloc.network(), options.routing);
  std::printf("profile    %s (%d processes on %d nodes%s)\n", o.profile.c_str(), p.graph.num_tasks(),
              p.alloc.num_nodes(), phases_note(p, options, test).c_str());
  std::printf("algorithm  %s\n", algorithm_label(o.mapping.algorithm, choice).c_str());
  if (!choice.detail.empty()) std::printf("portfolio  %s\n", choice.detail.c_str());
  std::printf("objective  %s: %.10g (launcher's order) -> %.10g (mapped)\n", objective.description().c_str(), before,
              after);
  std::printf("decision   %s (gain %.4g, RANKMAP_MIN_GAIN %.4g)\n",
              placed ? "placed by the mapping" : ("kept the launcher's order: " + refusal).c_str(),
              before > 0 ? 1 - after / before : 0.0, gain_needed);
  print_change("mcl", metrics::max_channel_load(p.graph, p.alloc, p.launcher, *model),
               metrics::max_channel_load(p.graph, p.alloc, chosen, *model));
  print_change("hopbytes", metrics::hop_bytes(p.graph, p.alloc, p.launcher),
               metrics::hop_bytes(p.graph, p.alloc, chosen));
  std::printf("wrote      %s (%s)\n", o.output.c_str(), std::string(launch::format_name(format)).c_str());
  std::printf("launch     %s\n", launch_hint(format, o.output).c_str());
}

}  // namespace

void add_place_command(CLI::App& app) {
  auto options = std::make_shared<PlaceCommand>();
  auto* command = app.add_subcommand(
      "place",
      "map a RANKMAP_PROFILE profile and write a launcher file that starts each rank where the mapping "
      "puts it; the launcher's order is kept unless the mapping beats it by RANKMAP_MIN_GAIN");
  command
      ->add_option("--profile", options->profile,
                   "PREFIX of a profile: PREFIX.mtx, PREFIX.coords, and if present PREFIX.hosts, "
                   "PREFIX.launch.map and PREFIX.phase<k>.mtx")
      ->required();
  command->add_option("--format", options->format, "one of " + launch::launcher_format_names())->required();
  command->add_option("-o,--output", options->output, "launcher file to write")->required();
  command->add_option("--hosts", options->hosts,
                      "file with one host name per node, in node order (default PREFIX.hosts; for smpi-hostfile, "
                      "the SimGrid cluster's names)");
  command->add_option("--prefix", options->prefix, "host name prefix of the SimGrid cluster's names (default n)");
  command->add_option("--min-gain", options->min_gain,
                      "relative gain the mapping needs to replace the launcher's order (default RANKMAP_MIN_GAIN, "
                      "else 0.02)");
  command->add_flag("--no-phases", options->no_phases, "ignore PREFIX.phase<k>.mtx: map on the whole graph");
  command
      ->add_option("--phases-as", options->phases_as,
                   "objective: score mappings on the sum of the phases' MCLs; hedge: score them on the whole graph "
                   "and refuse one that raises the phases' load under the network's static routing (default: "
                   "objective for phases marked with MPI_Pcontrol, hedge for phases found from steps or time)")
      ->check(CLI::IsMember({"objective", "hedge"}));
  command->add_option("--mapping-output", options->mapping_output,
                      "also write the mapping the launcher file realises (a mapping file on PREFIX.coords)");
  add_mapping_options(*command, options->mapping);
  command->callback([options] { run_place(*options); });
}

}  // namespace rankmap::tools
