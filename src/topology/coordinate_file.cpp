// Reading and writing coordinate files (DESIGN.md §8), with errors that name the file and line.
#include <rankmap/topology/coordinate_file.hpp>

#include <charconv>
#include <climits>
#include <cstdint>
#include <fstream>
#include <istream>
#include <ostream>
#include <unordered_map>

namespace rankmap::topology {

namespace {

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  const std::string_view blanks = " \t\r\f\v";
  std::size_t pos = line.find_first_not_of(blanks);
  while (pos != std::string_view::npos) {
    const std::size_t end = std::min(line.find_first_of(blanks, pos), line.size());
    words.push_back(line.substr(pos, end - pos));
    pos = line.find_first_not_of(blanks, end);
  }
  return words;
}

bool parse_int(std::string_view text, int& value) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc{} && ptr == text.data() + text.size();
}

class Parser {
 public:
  explicit Parser(std::string_view source) : source_(source) {}

  void line(int number, std::string_view text) {
    line_ = number;
    text = text.substr(0, text.find('#'));
    const auto words = split_words(text);
    if (words.empty()) return;
    if (words[0] == "grid") return grid(words);
    if (words[0] == "node") return node(words);
    fail("unknown keyword '" + std::string(words[0]) + "'; expected 'grid' or 'node'");
  }

  CoordinateFile finish() {
    if (!have_grid_) throw InputError(std::string(source_) + ": no 'grid' line");
    return std::move(file_);
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw InputError(std::string(source_) + ":" + std::to_string(line_) + ": " + message);
  }

  void grid(const std::vector<std::string_view>& words) {
    if (have_grid_) fail("a second 'grid' line (the first is line " + std::to_string(grid_line_) + ")");
    if (words.size() != 3 || !words[2].starts_with("torus="))
      fail("expected 'grid <extents> torus=<one 0/1 flag per dimension>', e.g. 'grid 4x4x2 torus=110'");
    try {
      file_.grid = make_grid(words[1], words[2].substr(6));
    } catch (const InputError& e) {
      fail(e.what());
    }
    have_grid_ = true;
    grid_line_ = line_;
  }

  static Grid make_grid(std::string_view extents_text, std::string_view flags) {
    auto extents = parse_extents(extents_text, "grid extents");
    if (flags.size() != extents.size() || flags.find_first_not_of("01") != std::string_view::npos)
      throw InputError("torus= needs one 0/1 flag per dimension (" + std::to_string(extents.size()) + "), not '" +
                       std::string(flags) + "'");
    std::vector<bool> torus;
    for (char f : flags) torus.push_back(f == '1');
    return Grid(std::move(extents), std::move(torus));
  }

  void node(const std::vector<std::string_view>& words) {
    if (!have_grid_) fail("a 'node' line before the 'grid' line");
    const Grid& g = file_.grid;
    std::size_t ncoords = words.size() >= 2 ? words.size() - 2 : 0;
    int slots = 0;
    if (ncoords > 0 && words.back().starts_with("slots=")) {
      --ncoords;
      if (!parse_int(words.back().substr(6), slots) || slots < 1 || slots > kMaxSlotsPerNode)
        fail("'" + std::string(words.back()) + "': slots must be an integer from 1 to " +
             std::to_string(kMaxSlotsPerNode));
    }
    if (words.size() < 2 || ncoords != static_cast<std::size_t>(g.ndims()))
      fail("expected 'node <host>' and " + std::to_string(g.ndims()) + " coordinates, found " +
           std::to_string(ncoords) + " coordinates");
    CoordinateEntry entry{std::string(words[1]), {}, slots, line_};
    for (int d = 0; d < g.ndims(); ++d) {
      const std::string_view word = words[2 + d];
      if (!parse_int(word, entry.coords[d]) || entry.coords[d] < 0 || entry.coords[d] >= g.extent(d))
        fail("coordinate " + std::to_string(d) + " of host '" + entry.host + "' is '" + std::string(word) +
             "', outside 0.." + std::to_string(g.extent(d) - 1));
    }
    if (const auto [it, fresh] = line_of_host_.try_emplace(entry.host, line_); !fresh)
      fail("host '" + entry.host + "' is listed again (first on line " + std::to_string(it->second) + ")");
    const NodeId node = g.node_at(entry.coords);
    if (const auto [it, fresh] = line_of_node_.try_emplace(node, line_); !fresh)
      fail("host '" + entry.host + "' has the same coordinates as the host on line " + std::to_string(it->second));
    file_.nodes.push_back(std::move(entry));
  }

  std::string_view source_;
  int line_ = 0;
  bool have_grid_ = false;
  int grid_line_ = 0;
  CoordinateFile file_;
  std::unordered_map<std::string, int> line_of_host_;
  std::unordered_map<NodeId, int> line_of_node_;
};

}  // namespace

CoordinateFile parse_coordinate_file(std::istream& in, std::string_view source) {
  Parser parser(source);
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) parser.line(number, text);
  if (in.bad()) throw InputError(std::string(source) + ": read error");
  return parser.finish();
}

CoordinateFile read_coordinate_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open the coordinate file");
  return parse_coordinate_file(in, path);
}

void write_coordinate_file(std::ostream& out, const CoordinateFile& file) {
  const Grid& g = file.grid;
  out << "grid ";
  for (int d = 0; d < g.ndims(); ++d) out << (d ? "x" : "") << g.extent(d);
  out << " torus=";
  for (int d = 0; d < g.ndims(); ++d) out << (g.is_torus(d) ? '1' : '0');
  out << '\n';
  for (const CoordinateEntry& e : file.nodes) {
    out << "node " << e.host;
    for (int d = 0; d < g.ndims(); ++d) out << ' ' << e.coords[d];
    if (e.slots > 0) out << " slots=" << e.slots;
    out << '\n';
  }
}

const CoordinateEntry* find_host(const CoordinateFile& file, std::string_view host) {
  for (const CoordinateEntry& e : file.nodes)
    if (e.host == host) return &e;
  return nullptr;
}

Allocation allocation_of(const CoordinateFile& file, int ppn) {
  if (file.nodes.empty()) throw InputError("coordinate file: lists no nodes");
  std::int64_t total = 0;
  for (const CoordinateEntry& e : file.nodes) {
    const int count = e.slots > 0 ? e.slots : ppn;
    if (count < 1)
      throw InputError("coordinate file: host '" + e.host + "' gives no slots= and ppn is " + std::to_string(ppn));
    total += count;
  }
  if (total > INT32_MAX) throw InputError("coordinate file: more than 2^31 slots in all");
  std::vector<NodeId> node_of_slot;
  node_of_slot.reserve(static_cast<std::size_t>(total));
  for (const CoordinateEntry& e : file.nodes) {
    const int count = e.slots > 0 ? e.slots : ppn;
    node_of_slot.insert(node_of_slot.end(), static_cast<std::size_t>(count), file.grid.node_at(e.coords));
  }
  return Allocation(file.grid, std::move(node_of_slot));
}

}  // namespace rankmap::topology
