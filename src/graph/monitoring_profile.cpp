// Reader of Open MPI's pml monitoring profiles: one file per rank, merged into one communication graph.
#include <rankmap/graph/monitoring_profile.hpp>

#include "io/file_streams.hpp"
#include "io/text_reader.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

namespace rankmap::graph {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSuffix = ".prof";

/// What a data line of the profile contributes.
enum class LineKind { sent, received, summary };

struct LineRule {
  std::string_view tag;
  LineKind kind;
  bool has_peer;       ///< `tag rank peer N bytes M msgs sent`, else `tag rank N bytes M msgs sent`
  bool may_histogram;  ///< a trailing comma-separated histogram of message sizes
};

constexpr LineRule kRules[] = {
    {"E", LineKind::sent, true, true},        {"I", LineKind::sent, true, true},
    {"S", LineKind::sent, true, false},       {"R", LineKind::received, true, false},
    {"C", LineKind::summary, true, false},    {"O2A", LineKind::summary, false, false},
    {"A2O", LineKind::summary, false, false}, {"A2A", LineKind::summary, false, false},
};

const LineRule* rule_of(std::string_view tag) {
  for (const LineRule& rule : kRules)
    if (rule.tag == tag) return &rule;
  return nullptr;
}

std::string_view field(io::TextReader& reader, io::Fields& fields, const char* what) {
  const auto f = fields.next();
  if (!f) reader.fail(std::string("the line ends before its ") + what);
  return *f;
}

void expect_word(io::TextReader& reader, io::Fields& fields, std::string_view word) {
  const auto f = field(reader, fields, std::string(word).c_str());
  if (f != word) reader.fail("expected '" + std::string(word) + "', found " + io::quoted(f));
}

std::int64_t count(io::TextReader& reader, io::Fields& fields, const char* what) {
  const auto f = field(reader, fields, what);
  const auto value = io::parse_int(f);
  if (!value || *value < 0) reader.fail(std::string(what) + " " + io::quoted(f) + " is not a count");
  return *value;
}

TaskId task(io::TextReader& reader, io::Fields& fields, const char* what, TaskId num_tasks) {
  const std::int64_t value = count(reader, fields, what);
  if (value >= num_tasks)
    reader.fail(std::string(what) + " " + std::to_string(value) + " is outside 0.." + std::to_string(num_tasks - 1) +
                ", the ranks of the " + std::to_string(num_tasks) + " profiles");
  return static_cast<TaskId>(value);
}

bool is_histogram(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || c == ','; });
}

/// `tag rank [peer] N bytes M msgs sent [histogram]`, appending its edge when it has one.
void parse_data_line(io::TextReader& reader, io::Fields& fields, const LineRule& rule, TaskId rank, TaskId num_tasks,
                     std::vector<Edge>& edges) {
  const TaskId sender = task(reader, fields, "rank", num_tasks);
  if (sender != rank)
    reader.fail("the line is about rank " + std::to_string(sender) + " but the file is the profile of rank " +
                std::to_string(rank));
  const TaskId peer = rule.has_peer ? task(reader, fields, "peer rank", num_tasks) : rank;
  const std::int64_t bytes = count(reader, fields, "byte count");
  expect_word(reader, fields, "bytes");
  count(reader, fields, "message count");
  expect_word(reader, fields, "msgs");
  expect_word(reader, fields, "sent");
  if (const auto rest = fields.next()) {
    if (!rule.may_histogram || !is_histogram(*rest)) reader.fail("unexpected text " + io::quoted(*rest));
    if (!fields.done()) reader.fail("unexpected text after the size histogram");
  }
  if (rule.kind == LineKind::sent && bytes > 0) edges.push_back({rank, peer, static_cast<double>(bytes)});
  if (rule.kind == LineKind::received && bytes > 0) edges.push_back({peer, rank, static_cast<double>(bytes)});
}

/// `<prefix>.<rank>.prof` split into prefix and rank; nothing when the name has another form.
std::optional<std::pair<std::string, std::int64_t>> split_profile_name(const std::string& path) {
  if (!path.ends_with(kSuffix)) return std::nullopt;
  const std::string stem = path.substr(0, path.size() - kSuffix.size());
  const auto dot = stem.find_last_of('.');
  if (dot == std::string::npos) return std::nullopt;
  const std::string digits = stem.substr(dot + 1);
  // The writer prints %d: no sign, no leading zero, so one rank has exactly one name.
  if (digits.empty() || digits.size() > 9 || (digits.size() > 1 && digits[0] == '0') ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::make_pair(stem.substr(0, dot), std::stoll(digits));
}

/// Every profile file beside `prefix` (same directory, same base name), by rank; `ec` says if the
/// directory could not be listed.
std::map<std::int64_t, std::string> files_of_set(const std::string& prefix, std::error_code& ec) {
  const fs::path base(prefix);
  const fs::path dir = base.has_parent_path() ? base.parent_path() : fs::path(".");
  std::map<std::int64_t, std::string> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const auto split = split_profile_name(it->path().filename().string());
    if (split && split->first == base.filename().string()) files[split->second] = it->path().string();
  }
  return files;
}

/// The prefix of the one set of profiles in `dir`; nothing when it holds none.
std::optional<std::string> prefix_in_directory(const std::string& dir) {
  std::vector<std::string> prefixes;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const auto split = split_profile_name(it->path().filename().string());
    if (split && std::find(prefixes.begin(), prefixes.end(), split->first) == prefixes.end())
      prefixes.push_back(split->first);
  }
  if (ec) throw InputError(dir + ": cannot list the directory: " + ec.message());
  if (prefixes.empty()) return std::nullopt;
  if (prefixes.size() > 1) {
    std::sort(prefixes.begin(), prefixes.end());
    throw InputError(dir + ": the directory holds several profile sets (" + prefixes[0] + ", " + prefixes[1] +
                     (prefixes.size() > 2 ? ", ..." : "") + "); give the path of one, e.g. " +
                     (fs::path(dir) / prefixes[0]).string());
  }
  return (fs::path(dir) / prefixes[0]).string();
}

}  // namespace

std::vector<Edge> parse_monitoring_profile(std::istream& in, std::string_view source, TaskId rank, TaskId num_tasks) {
  io::TextReader reader(in, source);
  std::vector<Edge> edges;
  std::string_view line;
  while (reader.next_line(line)) {
    if (line.starts_with('#') || io::is_blank(line)) continue;
    io::Fields fields(line);
    const std::string_view tag = *fields.next();
    if (tag == "D") continue;  // the members of a communicator: no traffic
    const LineRule* rule = rule_of(tag);
    if (!rule)
      reader.fail("unknown line type " + io::quoted(tag) +
                  "; a pml monitoring profile has E, I, S, R, C, D, O2A, A2O and A2A lines");
    parse_data_line(reader, fields, *rule, rank, num_tasks, edges);
  }
  return edges;
}

std::optional<std::string> monitoring_prefix(const std::string& path) {
  std::error_code ec;
  if (const auto split = split_profile_name(path)) return split->first;
  if (fs::is_directory(path, ec)) return prefix_in_directory(path);
  // A prefix is no file itself; any one profile beside it makes it a set (a missing rank is reported later).
  if (!fs::exists(path, ec) && !files_of_set(path, ec).empty()) return path;
  return std::nullopt;
}

CommGraph read_monitoring_profiles(const std::string& path) {
  const auto prefix = monitoring_prefix(path);
  if (!prefix) throw InputError(path + ": not a pml monitoring profile (<prefix>.<rank>.prof) nor its prefix");
  std::error_code ec;
  const auto files = files_of_set(*prefix, ec);
  if (ec) throw InputError(*prefix + ": cannot list the directory of the profiles: " + ec.message());
  const std::int64_t tasks = files.empty() ? 0 : files.rbegin()->first + 1;
  if (files.empty() || static_cast<std::int64_t>(files.size()) != tasks) {
    std::int64_t missing = 0;
    while (files.contains(missing)) ++missing;
    throw InputError(*prefix + ".<rank>.prof: the profile of rank " + std::to_string(missing) +
                     " is missing (files found: " + std::to_string(files.size()) +
                     "); every rank writes one at MPI_Finalize");
  }
  if (tasks > io::kMaxTasks)
    throw InputError(*prefix + ".<rank>.prof: " + std::to_string(tasks) + " ranks is more than the " +
                     std::to_string(io::kMaxTasks) + " supported");
  std::vector<Edge> edges;
  for (const auto& [rank, file] : files) {
    auto in = io::open_input(file);
    const auto more = parse_monitoring_profile(in, file, static_cast<TaskId>(rank), static_cast<TaskId>(tasks));
    edges.insert(edges.end(), more.begin(), more.end());
  }
  return CommGraph::from_edges(static_cast<TaskId>(tasks), std::move(edges));
}

}  // namespace rankmap::graph
