// Writing the traffic profile: Matrix Market graphs, the allocation, its hosts and a summary.
#include "profile_files.hpp"

#include "dump.hpp"

#include <rankmap/graph/matrix_market.hpp>
#include <rankmap/mapping/mapping_file.hpp>
#include <rankmap/topology/allocation_file.hpp>

#include <cstdio>
#include <fstream>
#include <set>

namespace rankmap::runtime {

namespace {

/// Bytes between distinct processes in `phase` (0: every phase). A process's messages to itself
/// never touch the network; the summary counts them apart.
graph::CommGraph graph_of(const GatheredProfile& profile, int phase) {
  std::vector<graph::Edge> edges;
  for (const SentTraffic& s : profile.sends)
    if ((phase == 0 || s.phase == phase) && s.source != s.destination)
      edges.push_back({s.source, s.destination, static_cast<double>(s.traffic.bytes)});
  return graph::CommGraph::from_edges(profile.processes, std::move(edges));
}

std::ofstream open(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw InputError("RANKMAP_PROFILE: cannot write " + path);
  return out;
}

void close(std::ofstream& out, const std::string& path) {
  out.close();
  if (!out) throw InputError("RANKMAP_PROFILE: cannot write " + path);
}

/// The node names of the coordinate file: the hosts when they tell the nodes apart, else node<i>
/// (an emulated machine runs many nodes on one host).
std::vector<std::string> coordinate_names(const std::vector<std::string>& hosts) {
  const std::set<std::string> distinct(hosts.begin(), hosts.end());
  if (distinct.size() == hosts.size()) return hosts;
  return {};
}

/// True when every node's slots are consecutive ranks, so the coordinate file's allocation (each
/// node's slots one after another) is the launcher's own order.
bool consecutive_by_node(const topology::Allocation& alloc) {
  for (SlotId s = 1; s < alloc.num_slots(); ++s)
    if (alloc.node_index_of_slot(s) < alloc.node_index_of_slot(s - 1)) return false;
  return true;
}

/// The launcher's order on the coordinate file's allocation: the k-th rank of node i runs on that
/// node's k-th slot.
mapping::Mapping launch_mapping(const topology::Allocation& live, const topology::Allocation& offline) {
  mapping::Mapping slot_of(static_cast<std::size_t>(live.num_slots()));
  for (int i = 0; i < live.num_nodes(); ++i) {
    const auto ranks = live.slots_of_node(i);
    const auto slots = offline.slots_of_node(i);
    for (std::size_t k = 0; k < ranks.size(); ++k) slot_of[ranks[k]] = slots[k];
  }
  return slot_of;
}

std::string files_written(const std::string& prefix, const GatheredProfile& profile, bool launch_map) {
  std::string names = "mtx,summary";
  if (profile.phase_origin != graph::PhaseOrigin::none) names += ",phase1.." + std::to_string(profile.phases) + ".mtx";
  if (profile.placement) names += launch_map ? ",coords,hosts,launch.map" : ",coords,hosts";
  return prefix + ".{" + names + "}";
}

void write_allocation(const std::string& prefix, const GatheredProfile& profile, const graph::CommGraph& graph,
                      bool& launch_map) {
  const topology::Allocation& live = profile.placement->alloc;
  const topology::AllocationFile file = allocation_file_of(live, coordinate_names(profile.node_hosts));
  std::ofstream coords = open(prefix + ".coords");
  coords << "# allocation of " << live.num_slots() << " processes, nodes in the launcher's order, written by "
         << "RANKMAP_PROFILE\n";
  if (profile.placement->mode == Placement::Mode::nodes_only)
    coords << "# the network is unknown (only which processes share a node): the grid is a stand-in line\n";
  write_allocation_file(coords, file);
  close(coords, prefix + ".coords");

  std::ofstream hosts = open(prefix + ".hosts");
  for (const std::string& h : profile.node_hosts) hosts << h << '\n';
  close(hosts, prefix + ".hosts");

  launch_map = !consecutive_by_node(live);
  if (!launch_map) return;
  const topology::Allocation offline = topology::allocation_of(file, 1);
  mapping::MappingFile m;
  m.tasks = graph.num_tasks();
  m.graph_hash = graph.canonical_hash();
  m.allocation_hash = offline.hash();
  m.algorithm = "launcher";
  m.slot_of = launch_mapping(live, offline);
  mapping::write_mapping_file(prefix + ".launch.map", m);
}

struct Totals {
  std::uint64_t bytes = 0, messages = 0, self_bytes = 0, collective_bytes = 0, collective_calls = 0;
};

Totals totals_of(const GatheredProfile& profile) {
  Totals t;
  for (const SentTraffic& s : profile.sends) {
    (s.source == s.destination ? t.self_bytes : t.bytes) += s.traffic.bytes;
    t.messages += s.traffic.messages;
  }
  for (const CollectiveCount& c : profile.collectives) {
    t.collective_bytes += c.bytes;
    t.collective_calls += c.calls;
  }
  return t;
}

double graph_share(const Totals& t) {
  const double all = static_cast<double>(t.bytes) + static_cast<double>(t.collective_bytes);
  return all > 0 ? static_cast<double>(t.bytes) / all : 1.0;
}

void write_summary(const std::string& path, const GatheredProfile& profile, const Totals& t, std::int64_t edges) {
  std::ofstream out = open(path);
  out << "# rankmap traffic profile (docs/offline-mapping.md)\n"
      << "processes " << profile.processes << "\nphases " << profile.phases << "\nphase_rule "
      << graph::to_string(profile.phase_origin) << "\nedges " << edges << "\np2p_bytes " << t.bytes
      << "\np2p_messages " << t.messages << "\nself_bytes " << t.self_bytes << "\ncollective_bytes "
      << t.collective_bytes << "\ncollective_calls " << t.collective_calls << "\ngraph_share " << graph_share(t)
      << '\n';
  if (!profile.placement) out << "# no allocation written: " << profile.placement_failure << '\n';
  out << "# collective <operation> size=<communicator size> calls=<calls, summed over processes> "
         "bytes=<data the processes passed in>\n";
  for (const CollectiveCount& c : profile.collectives)
    out << "collective " << collective_name(c.op) << " size=" << c.comm_size << " calls=" << c.calls
        << " bytes=" << c.bytes << '\n';
  close(out, path);
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

}  // namespace

std::string write_profile(const std::string& prefix, const GatheredProfile& profile) {
  const graph::CommGraph all = graph_of(profile, 0);
  graph::write_matrix_market(prefix + ".mtx", all);
  if (profile.phase_origin != graph::PhaseOrigin::none)
    for (int k = 1; k <= profile.phases; ++k)
      graph::write_matrix_market(prefix + ".phase" + std::to_string(k) + ".mtx", graph_of(profile, k));
  bool launch_map = false;
  if (profile.placement) write_allocation(prefix, profile, all, launch_map);
  const Totals t = totals_of(profile);
  write_summary(prefix + ".summary", profile, t, all.num_edges());

  std::string line = "profile of " + std::to_string(profile.processes) + " processes: " + number(t.bytes) +
                     " bytes in " + std::to_string(t.messages) + " messages over " + std::to_string(all.num_edges()) +
                     " edges; collectives " + number(t.collective_bytes) + " bytes in " +
                     std::to_string(t.collective_calls) + " calls (" + number(100 * graph_share(t)) +
                     "% of the bytes are in the graph); wrote " + files_written(prefix, profile, launch_map);
  if (!profile.placement) line += "; no allocation: " + profile.placement_failure;
  return line;
}

}  // namespace rankmap::runtime
