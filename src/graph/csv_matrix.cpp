// Reader of dense CSV byte matrices (one row per sender), the form numpy.savetxt and spreadsheets write.
#include <rankmap/graph/csv_matrix.hpp>

#include "io/text_reader.hpp"

#include <istream>

namespace rankmap::graph {

namespace {

std::string_view trim(std::string_view text) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

/// The comma-separated values of a line, blanks around each removed.
std::vector<std::string_view> split_values(std::string_view line) {
  std::vector<std::string_view> values;
  for (;;) {
    const auto comma = line.find(',');
    values.push_back(trim(line.substr(0, comma)));
    if (comma == std::string_view::npos) return values;
    line.remove_prefix(comma + 1);
  }
}

double parse_value(io::TextReader& reader, std::string_view text, std::size_t column) {
  const auto value = io::parse_number(text);
  if (!value)
    reader.fail("column " + std::to_string(column + 1) + ": " +
                (text.empty() ? std::string("empty value") : io::quoted(text) + " is not a finite number"));
  if (*value < 0)
    reader.fail("column " + std::to_string(column + 1) + ": " + io::quoted(text) +
                " is negative; bytes sent must be >= 0");
  return *value;
}

}  // namespace

CommGraph parse_csv_matrix(std::istream& in, std::string_view source) {
  io::TextReader reader(in, source);
  std::vector<Edge> edges;
  std::int64_t columns = -1;  // fixed by the first row
  std::int64_t rows = 0;
  std::string_view line;
  while (reader.next_line(line)) {
    if (trim(line).starts_with('#') || io::is_blank(line)) continue;
    const auto values = split_values(line);
    if (columns < 0 && rows == 0 && !io::parse_number(values.front())) {
      columns = static_cast<std::int64_t>(values.size());  // a header: it only fixes the width
      continue;
    }
    if (columns < 0) columns = static_cast<std::int64_t>(values.size());
    if (static_cast<std::int64_t>(values.size()) != columns)
      reader.fail("the row has " + std::to_string(values.size()) + " values but the first has " +
                  std::to_string(columns) + "; the matrix must be square, one row and one column per task");
    if (rows == columns)
      reader.fail("more rows than the " + std::to_string(columns) +
                  " columns; the matrix must be square, one row and one column per task");
    for (std::size_t j = 0; j < values.size(); ++j)
      if (const double w = parse_value(reader, values[j], j); w > 0)
        edges.push_back({static_cast<TaskId>(rows), static_cast<TaskId>(j), w});
    ++rows;
  }
  if (rows == 0) reader.fail_file("no rows; expected a square matrix of comma-separated byte counts");
  if (rows != columns)
    reader.fail_file("the matrix has " + std::to_string(rows) + " rows but " + std::to_string(columns) +
                     " columns; it must be square, one row and one column per task");
  return CommGraph::from_edges(static_cast<TaskId>(rows), std::move(edges));
}

}  // namespace rankmap::graph
