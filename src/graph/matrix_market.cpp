// Matrix Market coordinate reader and writer for communication graphs.
#include <rankmap/graph/matrix_market.hpp>

#include "io/file_streams.hpp"
#include "io/text_reader.hpp"

#include <array>
#include <charconv>
#include <ostream>

namespace rankmap::graph {

namespace {

enum class Field { real, integer, pattern };
enum class Symmetry { general, symmetric };

struct Banner {
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
};

Banner parse_banner(io::TextReader& reader, std::string_view line) {
  io::Fields fields(line);
  const auto word = [&](const char* what) {
    const auto f = fields.next();
    if (!f) reader.fail("the banner ends before its " + std::string(what));
    return *f;
  };
  if (!io::equals_ignoring_case(word("start"), "%%MatrixMarket"))
    reader.fail("expected the banner '%%MatrixMarket matrix coordinate ...'");
  if (const auto object = word("object"); !io::equals_ignoring_case(object, "matrix"))
    reader.fail("object " + io::quoted(object) + " is not supported; expected 'matrix'");
  if (const auto format = word("format"); !io::equals_ignoring_case(format, "coordinate"))
    reader.fail("format " + io::quoted(format) + " is not supported; expected 'coordinate'");
  Banner banner;
  const auto field = word("field");
  if (io::equals_ignoring_case(field, "real") || io::equals_ignoring_case(field, "double"))
    banner.field = Field::real;
  else if (io::equals_ignoring_case(field, "integer"))
    banner.field = Field::integer;
  else if (io::equals_ignoring_case(field, "pattern"))
    banner.field = Field::pattern;
  else
    reader.fail("field " + io::quoted(field) + " is not supported; expected real, integer or pattern");
  const auto symmetry = word("symmetry");
  if (io::equals_ignoring_case(symmetry, "general"))
    banner.symmetry = Symmetry::general;
  else if (io::equals_ignoring_case(symmetry, "symmetric"))
    banner.symmetry = Symmetry::symmetric;
  else
    reader.fail("symmetry " + io::quoted(symmetry) + " is not supported; expected general or symmetric");
  if (!fields.done()) reader.fail("unexpected text after the banner");
  return banner;
}

/// The next line that is neither a comment nor blank; false at the end of the input.
bool next_content_line(io::TextReader& reader, std::string_view& line) {
  while (reader.next_line(line))
    if (!line.starts_with('%') && !io::is_blank(line)) return true;
  return false;
}

std::int64_t parse_count(io::TextReader& reader, io::Fields& fields, const char* what) {
  const auto f = fields.next();
  if (!f) reader.fail("the size line needs rows, columns and entries; " + std::string(what) + " is missing");
  const auto value = io::parse_int(*f);
  if (!value || *value < 0) reader.fail(std::string(what) + " " + io::quoted(*f) + " is not a count");
  return *value;
}

TaskId parse_index(io::TextReader& reader, std::string_view text, const char* what, std::int64_t n) {
  const auto value = io::parse_int(text);
  if (!value) reader.fail(std::string(what) + " " + io::quoted(text) + " is not an integer");
  if (*value < 1 || *value > n)
    reader.fail(std::string(what) + " " + std::to_string(*value) + " is outside 1.." + std::to_string(n));
  return static_cast<TaskId>(*value - 1);
}

double parse_weight(io::TextReader& reader, std::string_view text, Field field) {
  std::optional<double> value;
  if (field == Field::integer) {
    if (const auto v = io::parse_int(text)) value = static_cast<double>(*v);
  } else {
    value = io::parse_number(text);
  }
  if (!value)
    reader.fail("value " + io::quoted(text) + " is not " +
                (field == Field::integer ? "an integer" : "a finite number"));
  if (*value < 0) reader.fail("value " + io::quoted(text) + " is negative; bytes sent must be >= 0");
  return *value;
}

}  // namespace

CommGraph parse_matrix_market(std::istream& in, std::string_view source) {
  io::TextReader reader(in, source);
  std::string_view line;
  if (!reader.next_line(line)) reader.fail_file("empty file; expected a '%%MatrixMarket' banner");
  const Banner banner = parse_banner(reader, line);

  if (!next_content_line(reader, line)) reader.fail_file("no size line after the banner");
  io::Fields size_fields(line);
  const std::int64_t rows = parse_count(reader, size_fields, "rows");
  const std::int64_t cols = parse_count(reader, size_fields, "columns");
  const std::int64_t entries = parse_count(reader, size_fields, "entries");
  if (!size_fields.done()) reader.fail("unexpected text after rows, columns and entries");
  if (rows != cols)
    reader.fail("the matrix is " + std::to_string(rows) + " x " + std::to_string(cols) +
                "; a communication graph needs one row and one column per task");
  if (rows > io::kMaxTasks)
    reader.fail(std::to_string(rows) + " tasks is more than the " + std::to_string(io::kMaxTasks) + " supported");

  std::vector<Edge> edges;
  edges.reserve(static_cast<std::size_t>(std::min<std::int64_t>(entries, io::kMaxReserve)));
  std::int64_t seen = 0;
  while (next_content_line(reader, line)) {
    if (seen == entries)
      reader.fail("more entries than the " + std::to_string(entries) + " the size line declares");
    io::Fields fields(line);
    std::array<std::string_view, 3> f;
    const std::size_t wanted = banner.field == Field::pattern ? 2 : 3;
    for (std::size_t k = 0; k < wanted; ++k) {
      const auto next = fields.next();
      if (!next)
        reader.fail("an entry needs " + std::string(wanted == 2 ? "row and column" : "row, column and value"));
      f[k] = *next;
    }
    if (!fields.done()) reader.fail("unexpected text after the entry");
    const TaskId i = parse_index(reader, f[0], "row", rows);
    const TaskId j = parse_index(reader, f[1], "column", cols);
    const double w = banner.field == Field::pattern ? 1.0 : parse_weight(reader, f[2], banner.field);
    edges.push_back({i, j, w});
    if (banner.symmetry == Symmetry::symmetric && i != j) edges.push_back({j, i, w});
    ++seen;
  }
  if (seen != entries)
    reader.fail_file("the size line declares " + std::to_string(entries) + " entries but the file has " +
                     std::to_string(seen));
  return CommGraph::from_edges(static_cast<TaskId>(rows), std::move(edges));
}

CommGraph read_matrix_market(const std::string& path) {
  auto in = io::open_input(path);
  return parse_matrix_market(in, path);
}

void write_matrix_market(std::ostream& out, const CommGraph& graph) {
  out << "%%MatrixMarket matrix coordinate real general\n"
      << "% communication graph: entry (i, j, w) is w bytes sent from task i to task j\n"
      << graph.num_tasks() << ' ' << graph.num_tasks() << ' ' << graph.num_edges() << '\n';
  // Shortest round-trip formatting: the value reads back bit for bit, like %.17g, but shorter.
  std::array<char, 64> buf;
  for (TaskId t = 0; t < graph.num_tasks(); ++t) {
    const auto targets = graph.out_neighbors(t);
    const auto weights = graph.out_weights(t);
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const auto end = std::to_chars(buf.data(), buf.data() + buf.size(), weights[k]).ptr;
      out << t + 1 << ' ' << targets[k] + 1 << ' ' << std::string_view(buf.data(), end - buf.data()) << '\n';
    }
  }
}

void write_matrix_market(const std::string& path, const CommGraph& graph) {
  auto out = io::open_output(path);
  write_matrix_market(out, graph);
  io::close_output(out, path);
}

}  // namespace rankmap::graph
