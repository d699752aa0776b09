// Writers of launcher placement files (Open MPI rankfile, Hydra, Slurm and SMPI host files, BG/Q map file).
#include <rankmap/launch/launcher_file.hpp>

#include <rankmap/hash.hpp>

#include "io/file_streams.hpp"
#include "io/text_reader.hpp"

#include <ostream>

namespace rankmap::launch {

namespace {

struct FormatName {
  LauncherFormat format;
  std::string_view name;
};

constexpr FormatName kFormats[] = {
    {LauncherFormat::openmpi_rankfile, "openmpi-rankfile"}, {LauncherFormat::mpich_hostfile, "mpich-hostfile"},
    {LauncherFormat::slurm_hostfile, "slurm-hostfile"},     {LauncherFormat::bgq_mapfile, "bgq-mapfile"},
    {LauncherFormat::smpi_hostfile, "smpi-hostfile"},
};

/// BG/Q's torus has the five dimensions A, B, C, D, E; T, the process within a node, comes sixth.
constexpr int kBgqDims = 5;

/// The position of every slot among the slots of its node: Open MPI's `slot=` and BG/Q's T.
std::vector<int> local_index_of_slots(const topology::Allocation& alloc) {
  std::vector<int> local(static_cast<std::size_t>(alloc.num_slots()));
  for (int i = 0; i < alloc.num_nodes(); ++i) {
    const auto slots = alloc.slots_of_node(i);
    for (std::size_t k = 0; k < slots.size(); ++k) local[slots[k]] = static_cast<int>(k);
  }
  return local;
}

void check_inputs(LauncherFormat format, const topology::Allocation& alloc, std::span<const SlotId> slot_of,
                  std::span<const std::string> hosts) {
  for (const SlotId s : slot_of)
    if (s < 0 || s >= alloc.num_slots())
      throw InputError("slot " + std::to_string(s) + " is outside the allocation's " +
                       std::to_string(alloc.num_slots()) + " slots");
  if (needs_host_names(format) && static_cast<int>(hosts.size()) != alloc.num_nodes())
    throw InputError(std::string(format_name(format)) + " needs one host name per node: " +
                     std::to_string(hosts.size()) + " names for " + std::to_string(alloc.num_nodes()) + " nodes");
  if (format == LauncherFormat::bgq_mapfile && (!alloc.network().is_grid() || alloc.grid().ndims() != kBgqDims))
    throw InputError("bgq-mapfile needs a 5-dimensional grid (A B C D E), not " + alloc.network().to_string());
}

}  // namespace

LauncherFormat parse_launcher_format(std::string_view name) {
  for (const FormatName& f : kFormats)
    if (f.name == name) return f.format;
  throw InputError("--format " + io::quoted(name) + " is not a launcher format; expected one of " +
                   launcher_format_names());
}

std::string_view format_name(LauncherFormat format) {
  for (const FormatName& f : kFormats)
    if (f.format == format) return f.name;
  return "unknown";
}

std::string launcher_format_names() {
  std::string out;
  for (const FormatName& f : kFormats) out += (out.empty() ? "" : ", ") + std::string(f.name);
  return out;
}

bool needs_host_names(LauncherFormat format) { return format != LauncherFormat::bgq_mapfile; }

topology::Allocation allocation_of_mapping(const mapping::MappingFile& mapping, const topology::Allocation& whole,
                                           std::string_view source) {
  const std::string where(source);
  if (mapping.tasks > whole.num_slots())
    throw InputError(where + ": the mapping has " + std::to_string(mapping.tasks) + " tasks but the allocation has " +
                     std::to_string(whole.num_slots()) + " slots");
  topology::Allocation alloc = mapping.tasks == whole.num_slots() ? whole : whole.first_slots(mapping.tasks);
  if (const std::uint64_t h = alloc.hash(); h != mapping.allocation_hash)
    throw InputError(where + ": allocation hash " + hash_to_hex(mapping.allocation_hash) +
                     " does not match the allocation (" + hash_to_hex(h) +
                     "); the mapping was computed for other nodes or another slot order");
  return alloc;
}

std::vector<std::string> parse_host_list(std::istream& in, std::string_view source) {
  io::TextReader reader(in, source);
  std::vector<std::string> hosts;
  std::string_view line;
  while (reader.next_line(line)) {
    io::Fields fields(io::strip_comment(line, '#'));
    const auto host = fields.next();
    if (!host) continue;
    if (!fields.done()) reader.fail("one host name per line; " + io::quoted(line) + " has several words");
    hosts.emplace_back(*host);
  }
  if (hosts.empty()) reader.fail_file("no host names; expected one per line, in node order");
  return hosts;
}

std::vector<std::string> read_host_list(const std::string& path) {
  auto in = io::open_input(path);
  return parse_host_list(in, path);
}

std::int64_t simgrid_torus_id(const topology::Grid& grid, NodeId node) {
  std::int64_t id = 0;
  for (int d = grid.ndims() - 1; d >= 0; --d) id = id * grid.extent(d) + grid.coord(node, d);
  return id;
}

std::vector<std::string> simgrid_host_names(const topology::Allocation& alloc, std::string_view prefix) {
  std::vector<std::string> hosts;
  hosts.reserve(static_cast<std::size_t>(alloc.num_nodes()));
  if (!alloc.network().is_grid()) {
    // FAT_TREE and DRAGONFLY clusters create their hosts in rankmap's node order (docs/networks.md).
    for (const NodeId node : alloc.nodes()) hosts.push_back(std::string(prefix) + std::to_string(node));
    return hosts;
  }
  const topology::Grid& grid = alloc.grid();
  for (int d = 0; d < grid.ndims(); ++d)
    if (!grid.is_torus(d))
      throw InputError("SimGrid TORUS host names need a torus in every dimension, not " + grid.to_string() +
                       "; give the names with --hosts");
  for (const NodeId node : alloc.nodes())
    hosts.push_back(std::string(prefix) + std::to_string(simgrid_torus_id(grid, node)));
  return hosts;
}

void write_launcher_file(std::ostream& out, LauncherFormat format, const topology::Allocation& alloc,
                         std::span<const SlotId> slot_of, std::span<const std::string> hosts) {
  check_inputs(format, alloc, slot_of, hosts);
  const std::vector<int> local = local_index_of_slots(alloc);
  for (std::size_t t = 0; t < slot_of.size(); ++t) {
    const SlotId s = slot_of[t];
    switch (format) {
      case LauncherFormat::openmpi_rankfile:
        out << "rank " << t << '=' << hosts[alloc.node_index_of_slot(s)] << " slot=" << local[s] << '\n';
        break;
      case LauncherFormat::bgq_mapfile: {
        const NodeId node = alloc.node_of_slot(s);
        for (int d = 0; d < kBgqDims; ++d) out << alloc.grid().coord(node, d) << ' ';
        out << local[s] << '\n';
        break;
      }
      case LauncherFormat::mpich_hostfile:
      case LauncherFormat::slurm_hostfile:
      case LauncherFormat::smpi_hostfile:
        out << hosts[alloc.node_index_of_slot(s)] << '\n';
        break;
    }
  }
}

void write_launcher_file(const std::string& path, LauncherFormat format, const topology::Allocation& alloc,
                         std::span<const SlotId> slot_of, std::span<const std::string> hosts) {
  auto out = io::open_output(path);
  write_launcher_file(out, format, alloc, slot_of, hosts);
  io::close_output(out, path);
}

}  // namespace rankmap::launch
