// Format dispatch for graph files: by extension first, then by the file's first bytes.
#include <rankmap/graph/csv_matrix.hpp>
#include <rankmap/graph/graph_file.hpp>
#include <rankmap/graph/matrix_market.hpp>
#include <rankmap/graph/metis_format.hpp>
#include <rankmap/graph/monitoring_profile.hpp>

#include "io/file_streams.hpp"
#include "io/text_reader.hpp"

#include <array>
#include <string_view>

namespace rankmap::graph {

namespace {

/// How much of the file the content sniffers see.
constexpr std::size_t kHeadSize = 4096;

bool looks_like_matrix_market(std::string_view head) {
  constexpr std::string_view banner = "%%MatrixMarket";
  return head.size() >= banner.size() && io::equals_ignoring_case(head.substr(0, banner.size()), banner);
}

/// One supported format. Adding a format is one row here (and its reader).
struct GraphFormat {
  std::string_view name;
  std::array<std::string_view, 2> extensions;  ///< lowercase, with the dot; empty entries unused
  bool (*recognizes)(std::string_view head);   ///< content test, or nullptr when there is none
  CommGraph (*parse)(std::istream&, std::string_view source);
};

constexpr GraphFormat kFormats[] = {
    {"Matrix Market", {".mtx", ""}, looks_like_matrix_market, parse_matrix_market},
    {"METIS", {".graph", ".metis"}, nullptr, parse_metis},
    {"CSV matrix", {".csv", ""}, nullptr, parse_csv_matrix},
};

std::string lowercase_extension(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot);
  for (char& c : ext)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return ext;
}

const GraphFormat* format_by_extension(const std::string& path) {
  const std::string ext = lowercase_extension(path);
  for (const GraphFormat& f : kFormats)
    for (std::string_view e : f.extensions)
      if (!e.empty() && e == ext) return &f;
  return nullptr;
}

const GraphFormat* format_by_content(std::string_view head) {
  for (const GraphFormat& f : kFormats)
    if (f.recognizes && f.recognizes(head)) return &f;
  return nullptr;
}

std::string known_formats() {
  std::string out;
  for (const GraphFormat& f : kFormats) {
    if (!out.empty()) out += ", ";
    out += std::string(f.name) + " (";
    for (std::string_view e : f.extensions)
      if (!e.empty()) out += (out.back() == '(' ? "" : " ") + std::string(e);
    out += ")";
  }
  return out + ", Open MPI pml monitoring profiles (<prefix>.<rank>.prof)";
}

}  // namespace

CommGraph read_graph_file(const std::string& path) {
  // A profile set spans one file per rank, so it is recognised by its names before any file is opened.
  if (lowercase_extension(path) == ".prof" || monitoring_prefix(path)) return read_monitoring_profiles(path);
  auto in = io::open_input(path);
  const GraphFormat* format = format_by_extension(path);
  if (!format) {
    std::string head(kHeadSize, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    format = format_by_content(head);
    if (!format)
      throw InputError(path + ": cannot tell the graph format from the name or the content; known formats: " +
                       known_formats());
    in.clear();
    in.seekg(0);
  }
  return format->parse(in, path);
}

}  // namespace rankmap::graph
