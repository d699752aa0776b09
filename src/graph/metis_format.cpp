// METIS graph-file reader.
#include <rankmap/graph/metis_format.hpp>

#include "io/file_streams.hpp"
#include "io/text_reader.hpp"

#include <algorithm>
#include <span>

namespace rankmap::graph {

namespace {

struct Header {
  std::int64_t vertices = 0;
  std::int64_t edges = 0;
  bool vertex_sizes = false;
  bool vertex_weights = false;
  bool edge_weights = false;
  std::int64_t constraints = 1;
};

/// The limit on ncon, the number of weights per vertex; METIS itself handles a handful.
constexpr std::int64_t kMaxConstraints = 1024;
/// Far beyond any graph that fits in memory; it only keeps 2m from overflowing.
constexpr std::int64_t kMaxEdges = std::int64_t{1} << 50;

std::int64_t header_count(io::TextReader& reader, std::string_view text, const char* what) {
  const auto v = io::parse_int(text);
  if (!v || *v < 0) reader.fail("header: " + std::string(what) + " " + io::quoted(text) + " is not a count");
  return *v;
}

Header parse_header(io::TextReader& reader, std::string_view line) {
  io::Fields fields(line);
  Header h;
  const auto n = fields.next();
  const auto m = fields.next();
  if (!n || !m) reader.fail("header: expected 'vertices edges [fmt [ncon]]'");
  h.vertices = header_count(reader, *n, "vertex count");
  h.edges = header_count(reader, *m, "edge count");
  if (h.edges > kMaxEdges)
    reader.fail("header: " + std::to_string(h.edges) + " edges is more than the " + std::to_string(kMaxEdges) +
                " supported");
  if (h.vertices > io::kMaxTasks)
    reader.fail("header: " + std::to_string(h.vertices) + " vertices is more than the " +
                std::to_string(io::kMaxTasks) + " supported");
  if (const auto fmt = fields.next()) {
    if (fmt->size() > 3 || fmt->find_first_not_of("01") != std::string_view::npos)
      reader.fail("header: fmt " + io::quoted(*fmt) + " must be up to three 0/1 digits");
    const std::string padded = std::string(3 - fmt->size(), '0') + std::string(*fmt);
    h.vertex_sizes = padded[0] == '1';
    h.vertex_weights = padded[1] == '1';
    h.edge_weights = padded[2] == '1';
  }
  if (const auto ncon = fields.next()) {
    const auto v = io::parse_int(*ncon);
    if (!v || *v < 1 || *v > kMaxConstraints)
      reader.fail("header: ncon " + io::quoted(*ncon) + " must be 1.." + std::to_string(kMaxConstraints));
    h.constraints = *v;
  }
  if (!fields.done()) reader.fail("header: unexpected text after 'vertices edges fmt ncon'");
  return h;
}

/// Lines that start with '%' are comments; blank lines are not, because they are vertices without neighbours.
bool next_non_comment_line(io::TextReader& reader, std::string_view& line) {
  while (reader.next_line(line))
    if (!line.starts_with('%')) return true;
  return false;
}

void skip_vertex_data(io::TextReader& reader, io::Fields& fields, const Header& h, std::int64_t u) {
  const std::int64_t skip = (h.vertex_sizes ? 1 : 0) + (h.vertex_weights ? h.constraints : 0);
  for (std::int64_t k = 0; k < skip; ++k) {
    const auto f = fields.next();
    if (!f) reader.fail("vertex " + std::to_string(u + 1) + " needs its size and weights before its neighbours");
    if (!io::parse_number(*f)) reader.fail("vertex weight " + io::quoted(*f) + " is not a number");
  }
}

/// Reads one vertex line into `edges`.
void parse_vertex(io::TextReader& reader, std::string_view line, const Header& h, std::int64_t u,
                  std::vector<Edge>& edges) {
  io::Fields fields(line);
  skip_vertex_data(reader, fields, h, u);
  const std::size_t first = edges.size();
  while (const auto f = fields.next()) {
    const auto v = io::parse_int(*f);
    if (!v) reader.fail("neighbour " + io::quoted(*f) + " is not an integer");
    if (*v < 1 || *v > h.vertices)
      reader.fail("neighbour " + std::to_string(*v) + " is outside 1.." + std::to_string(h.vertices));
    if (*v - 1 == u) reader.fail("vertex " + std::to_string(u + 1) + " lists itself; METIS graphs have no self loops");
    double w = 1;
    if (h.edge_weights) {
      const auto wf = fields.next();
      if (!wf) reader.fail("neighbour " + std::to_string(*v) + " has no edge weight");
      const auto parsed = io::parse_number(*wf);
      if (!parsed || *parsed < 0) reader.fail("edge weight " + io::quoted(*wf) + " is not a number >= 0");
      w = *parsed;
    }
    edges.push_back({static_cast<TaskId>(u), static_cast<TaskId>(*v - 1), w});
  }
  const auto mine = std::span(edges).subspan(first);
  std::sort(mine.begin(), mine.end(), [](const Edge& a, const Edge& b) { return a.dst < b.dst; });
  const auto twice = std::adjacent_find(mine.begin(), mine.end(), [](const Edge& a, const Edge& b) { return a.dst == b.dst; });
  if (twice != mine.end())
    reader.fail("vertex " + std::to_string(u + 1) + " lists neighbour " + std::to_string(twice->dst + 1) + " twice");
}

/// Every u -> v needs a v -> u of the same weight; `line_of` gives the line of each vertex for the message.
void check_symmetric(io::TextReader& reader, const CommGraph& g, const std::vector<std::int64_t>& line_of) {
  std::vector<Edge> forward = g.edges();
  std::vector<Edge> backward = g.transposed().edges();
  for (std::size_t k = 0; k < forward.size(); ++k) {
    const Edge& a = forward[k];
    const Edge& b = backward[k];
    if (a.src == b.src && a.dst == b.dst && a.weight == b.weight) continue;
    // The first difference in canonical order is an edge one side lists and the other does not.
    const Edge& odd = (a.src < b.src || (a.src == b.src && a.dst <= b.dst)) ? a : Edge{b.dst, b.src, b.weight};
    reader.fail_file("line " + std::to_string(line_of[odd.src]) + ": vertex " + std::to_string(odd.src + 1) +
                     " lists neighbour " + std::to_string(odd.dst + 1) + " but line " +
                     std::to_string(line_of[odd.dst]) + " (vertex " + std::to_string(odd.dst + 1) +
                     ") does not list it back with the same weight");
  }
}

}  // namespace

CommGraph parse_metis(std::istream& in, std::string_view source) {
  io::TextReader reader(in, source);
  std::string_view line;
  do {
    if (!next_non_comment_line(reader, line)) reader.fail_file("empty file; expected 'vertices edges [fmt [ncon]]'");
  } while (io::is_blank(line));
  const Header h = parse_header(reader, line);

  std::vector<Edge> edges;
  edges.reserve(static_cast<std::size_t>(std::min<std::int64_t>(2 * h.edges, io::kMaxReserve)));
  std::vector<std::int64_t> line_of;
  line_of.reserve(static_cast<std::size_t>(std::min<std::int64_t>(h.vertices, io::kMaxReserve)));
  for (std::int64_t u = 0; u < h.vertices; ++u) {
    if (!next_non_comment_line(reader, line))
      reader.fail_file("the header declares " + std::to_string(h.vertices) + " vertices but the file has " +
                       std::to_string(u));
    line_of.push_back(reader.line_number());
    parse_vertex(reader, line, h, u, edges);
  }
  while (next_non_comment_line(reader, line))
    if (!io::is_blank(line))
      reader.fail("more vertex lines than the " + std::to_string(h.vertices) + " the header declares");
  if (static_cast<std::int64_t>(edges.size()) != 2 * h.edges)
    reader.fail_file("the header declares " + std::to_string(h.edges) + " edges, so " + std::to_string(2 * h.edges) +
                     " neighbour entries, but the file lists " + std::to_string(edges.size()));
  CommGraph g = CommGraph::from_edges(static_cast<TaskId>(h.vertices), std::move(edges));
  check_symmetric(reader, g, line_of);
  return g;
}

CommGraph read_metis(const std::string& path) {
  auto in = io::open_input(path);
  return parse_metis(in, path);
}

}  // namespace rankmap::graph
