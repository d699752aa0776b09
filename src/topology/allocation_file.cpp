// Network allocation files, and reading either kind of allocation file, with located errors.
#include <rankmap/topology/allocation_file.hpp>
#include <rankmap/topology/coordinate_file.hpp>

#include "io/file_streams.hpp"
#include "io/text_reader.hpp"

#include <climits>
#include <istream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <unordered_map>

namespace rankmap::topology {

namespace {

class NetworkFileParser {
 public:
  explicit NetworkFileParser(io::TextReader& reader) : reader_(reader) {}

  void line(std::string_view text) {
    io::Fields fields(io::strip_comment(text, '#'));
    const auto keyword = fields.next();
    if (!keyword) return;
    if (*keyword == "network") return network(fields);
    if (*keyword == "node") return node(fields);
    reader_.fail("unknown keyword " + io::quoted(*keyword) + "; expected 'network' or 'node'");
  }

  AllocationFile finish() {
    if (!network_line_) reader_.fail_file("no 'network' line");
    return std::move(file_);
  }

 private:
  void network(io::Fields& fields) {
    if (network_line_)
      reader_.fail("a second 'network' line (the first is line " + std::to_string(network_line_) + ")");
    const auto spec = fields.next();
    if (!spec || !fields.done())
      reader_.fail("expected 'network SPEC', e.g. 'network fattree:2;4,4;1,2;1,2' or 'network dragonfly:3,1;2,1;4,1;2'");
    try {
      file_.network = Network::parse(*spec);
    } catch (const InputError& e) {
      reader_.fail(e.what());
    }
    if (file_.network.is_grid())
      reader_.fail(file_.network.to_string() +
                   " is a torus or mesh: its allocation is a coordinate file ('grid' line, nodes by coordinates)");
    network_line_ = static_cast<int>(reader_.line_number());
  }

  void node(io::Fields& fields) {
    if (!network_line_) reader_.fail("a 'node' line before the 'network' line");
    const auto host = fields.next();
    const auto index = fields.next();
    const auto extra = fields.next();
    if (!host || !index || (extra && !extra->starts_with("slots=")) || !fields.done())
      reader_.fail("expected 'node HOST INDEX' or 'node HOST INDEX slots=N'");
    NodeEntry entry{std::string(*host), 0, 0, static_cast<int>(reader_.line_number())};
    const auto node = io::parse_int(*index);
    const NodeId count = file_.network.num_nodes();
    if (!node || *node < 0 || *node >= count)
      reader_.fail("index " + io::quoted(*index) + " of host " + io::quoted(entry.host) + " is outside 0.." +
                   std::to_string(count - 1) + " of " + file_.network.to_string());
    entry.node = *node;
    if (extra) {
      const auto slots = io::parse_int(extra->substr(6));
      if (!slots || *slots < 1 || *slots > kMaxSlotsPerNode)
        reader_.fail(io::quoted(*extra) + ": slots must be an integer from 1 to " + std::to_string(kMaxSlotsPerNode));
      entry.slots = static_cast<int>(*slots);
    }
    if (const auto [it, fresh] = line_of_host_.try_emplace(entry.host, entry.line); !fresh)
      reader_.fail("host " + io::quoted(entry.host) + " is listed again (first on line " + std::to_string(it->second) + ")");
    if (const auto [it, fresh] = line_of_node_.try_emplace(entry.node, entry.line); !fresh)
      reader_.fail("host " + io::quoted(entry.host) + " has the same index as the host on line " +
                   std::to_string(it->second));
    file_.nodes.push_back(std::move(entry));
  }

  io::TextReader& reader_;
  int network_line_ = 0;
  AllocationFile file_;
  std::unordered_map<std::string, int> line_of_host_;
  std::unordered_map<NodeId, int> line_of_node_;
};

/// The first keyword of the text (comments and blank lines skipped), or empty.
std::string_view first_keyword(std::string_view text) {
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    io::Fields fields(io::strip_comment(text.substr(0, end), '#'));
    if (const auto word = fields.next()) return *word;
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return {};
}

AllocationFile from_coordinate_file(const CoordinateFile& coords) {
  AllocationFile file{coords.grid, {}};
  file.nodes.reserve(coords.nodes.size());
  for (const CoordinateEntry& e : coords.nodes) file.nodes.push_back({e.host, coords.grid.node_at(e.coords), e.slots, e.line});
  return file;
}

}  // namespace

AllocationFile parse_network_allocation_file(std::istream& in, std::string_view source) {
  io::TextReader reader(in, source);
  NetworkFileParser parser(reader);
  std::string_view line;
  while (reader.next_line(line)) parser.line(line);
  return parser.finish();
}

AllocationFile parse_allocation_file(std::istream& in, std::string_view source) {
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw InputError(std::string(source) + ": read error");
  std::istringstream again(text);
  if (first_keyword(text) == "grid") return from_coordinate_file(parse_coordinate_file(again, source));
  return parse_network_allocation_file(again, source);
}

AllocationFile read_allocation_file(const std::string& path) {
  auto in = io::open_input(path);
  return parse_allocation_file(in, path);
}

void write_allocation_file(std::ostream& out, const AllocationFile& file) {
  if (const Grid* grid = file.network.grid_if()) {
    CoordinateFile coords{*grid, {}};
    for (const NodeEntry& e : file.nodes) coords.nodes.push_back({e.host, grid->coords_of(e.node), e.slots, e.line});
    return write_coordinate_file(out, coords);
  }
  out << "network " << file.network.to_string() << '\n';
  for (const NodeEntry& e : file.nodes) {
    out << "node " << e.host << ' ' << e.node;
    if (e.slots > 0) out << " slots=" << e.slots;
    out << '\n';
  }
}

Allocation allocation_of(const AllocationFile& file, int ppn) {
  if (file.nodes.empty()) throw InputError("allocation file: lists no nodes");
  std::int64_t total = 0;
  for (const NodeEntry& e : file.nodes) {
    const int count = e.slots > 0 ? e.slots : ppn;
    if (count < 1)
      throw InputError("allocation file: host '" + e.host + "' gives no slots= and ppn is " + std::to_string(ppn));
    total += count;
  }
  if (total > INT32_MAX) throw InputError("allocation file: more than 2^31 slots in all");
  std::vector<NodeId> node_of_slot;
  node_of_slot.reserve(static_cast<std::size_t>(total));
  for (const NodeEntry& e : file.nodes)
    node_of_slot.insert(node_of_slot.end(), static_cast<std::size_t>(e.slots > 0 ? e.slots : ppn), e.node);
  return Allocation(file.network, std::move(node_of_slot));
}

}  // namespace rankmap::topology
