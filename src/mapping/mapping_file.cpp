// Reader, writer and job check of the versioned mapping file.
#include <rankmap/hash.hpp>
#include <rankmap/mapping/mapping_file.hpp>

#include "io/file_streams.hpp"
#include "io/text_reader.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <ostream>

namespace rankmap::mapping {

namespace {

constexpr int kVersion = 1;

/// The next line with content, comments removed; false at the end of the input.
bool next_content_line(io::TextReader& reader, std::string_view& line) {
  while (reader.next_line(line)) {
    line = io::strip_comment(line, '#');
    if (!io::is_blank(line)) return true;
  }
  return false;
}

/// Reads the next content line, which must start with `key`; returns the fields after it.
io::Fields keyed_line(io::TextReader& reader, std::string_view key, std::string_view form) {
  std::string_view line;
  if (!next_content_line(reader, line))
    reader.fail_file("the file ends before the '" + std::string(form) + "' line");
  io::Fields fields(line);
  const auto first = fields.next();
  if (*first != key) reader.fail("expected '" + std::string(form) + "', found " + io::quoted(*first));
  return fields;
}

std::string_view required(io::TextReader& reader, io::Fields& fields, std::string_view form) {
  const auto f = fields.next();
  if (!f) reader.fail("expected '" + std::string(form) + "'");
  return *f;
}

void expect_end(io::TextReader& reader, io::Fields& fields, std::string_view form) {
  if (!fields.done()) reader.fail("unexpected text after '" + std::string(form) + "'");
}

std::uint64_t hash_field(io::TextReader& reader, std::string_view key) {
  const std::string form = std::string(key) + " <16 hex digits>";
  io::Fields fields = keyed_line(reader, key, form);
  const std::string_view text = required(reader, fields, form);
  const auto hash = io::parse_hash(text);
  if (!hash) reader.fail(std::string(key) + " hash " + io::quoted(text) + " is not 16 hex digits");
  expect_end(reader, fields, form);
  return *hash;
}

void parse_header(io::TextReader& reader, MappingFile& file) {
  {
    constexpr std::string_view form = "rankmap-mapping 1";
    std::string_view line;
    if (!next_content_line(reader, line)) reader.fail_file("empty file; expected '" + std::string(form) + "'");
    io::Fields fields(line);
    if (*fields.next() != "rankmap-mapping") reader.fail("not a rankmap mapping file: expected '" + std::string(form) + "'");
    const std::string_view version = required(reader, fields, form);
    if (io::parse_int(version) != kVersion)
      reader.fail("mapping file version " + io::quoted(version) + " is not supported; this reader knows version 1");
    expect_end(reader, fields, form);
  }
  {
    constexpr std::string_view form = "tasks <P>";
    io::Fields fields = keyed_line(reader, "tasks", form);
    const std::string_view text = required(reader, fields, form);
    const auto p = io::parse_int(text);
    if (!p || *p < 1 || *p > io::kMaxTasks)
      reader.fail("task count " + io::quoted(text) + " must be 1.." + std::to_string(io::kMaxTasks));
    expect_end(reader, fields, form);
    file.tasks = static_cast<TaskId>(*p);
  }
  file.graph_hash = hash_field(reader, "graph");
  file.allocation_hash = hash_field(reader, "allocation");
  {
    constexpr std::string_view form = "algorithm <name> [objective]";
    io::Fields fields = keyed_line(reader, "algorithm", form);
    file.algorithm = std::string(required(reader, fields, form));
    if (const auto objective = fields.next()) {
      const auto value = io::parse_number(*objective);
      if (!value) reader.fail("objective " + io::quoted(*objective) + " is not a finite number");
      file.objective = *value;
    }
    expect_end(reader, fields, form);
  }
}

struct TaskLine {
  TaskId task;
  SlotId slot;
  std::int64_t line;
};

TaskLine parse_task_line(io::TextReader& reader, std::string_view line, TaskId tasks) {
  io::Fields fields(line);
  const auto number = [&](const char* what) {
    const auto f = fields.next();
    if (!f) reader.fail("expected '<task> <slot>'");
    const auto v = io::parse_int(*f);
    if (!v) reader.fail(std::string(what) + " " + io::quoted(*f) + " is not an integer");
    if (*v < 0 || *v >= tasks)
      reader.fail(std::string(what) + " " + std::to_string(*v) + " is outside 0.." + std::to_string(tasks - 1));
    return static_cast<std::int32_t>(*v);
  };
  TaskLine t;
  t.task = number("task");
  t.slot = number("slot");
  t.line = reader.line_number();
  if (!fields.done()) reader.fail("unexpected text after '<task> <slot>'");
  return t;
}

/// The task lines become slot_of; each task and each slot must occur exactly once.
Mapping to_permutation(io::TextReader& reader, const std::vector<TaskLine>& lines, TaskId tasks) {
  const auto at = [&](std::int64_t line) { return reader.source() + ":" + std::to_string(line) + ": "; };
  Mapping slot_of(static_cast<std::size_t>(tasks), -1);
  std::vector<std::int64_t> line_of_task(static_cast<std::size_t>(tasks), 0);
  std::vector<std::int64_t> line_of_slot(static_cast<std::size_t>(tasks), 0);
  for (const TaskLine& t : lines) {
    if (line_of_task[t.task] != 0)
      throw InputError(at(t.line) + "task " + std::to_string(t.task) + " already has a slot on line " +
                       std::to_string(line_of_task[t.task]));
    if (line_of_slot[t.slot] != 0)
      throw InputError(at(t.line) + "slot " + std::to_string(t.slot) + " is already taken on line " +
                       std::to_string(line_of_slot[t.slot]));
    slot_of[t.task] = t.slot;
    line_of_task[t.task] = t.line;
    line_of_slot[t.slot] = t.line;
  }
  return slot_of;
}

std::string format_number(double value) {
  std::array<char, 64> buf;
  const auto end = std::to_chars(buf.data(), buf.data() + buf.size(), value).ptr;
  return std::string(buf.data(), end);
}

void check_record(const MappingFile& file) {
  if (file.tasks < 1) throw InputError("mapping file: the task count must be at least 1");
  if (file.slot_of.size() != static_cast<std::size_t>(file.tasks) || !is_permutation(file.slot_of))
    throw InputError("mapping file: slot_of is not a permutation of " + std::to_string(file.tasks) + " slots");
  if (file.algorithm.empty() || file.algorithm.find_first_of(" \t\r\n#") != std::string::npos)
    throw InputError("mapping file: algorithm name " + io::quoted(file.algorithm) +
                     " must be one word without blanks or '#'");
  if (file.objective && !std::isfinite(*file.objective))
    throw InputError("mapping file: the objective must be a finite number");
}

}  // namespace

MappingFile parse_mapping_file(std::istream& in, std::string_view source) {
  io::TextReader reader(in, source);
  MappingFile file;
  parse_header(reader, file);
  std::vector<TaskLine> lines;
  lines.reserve(std::min<std::size_t>(static_cast<std::size_t>(file.tasks), io::kMaxReserve));
  std::string_view line;
  while (next_content_line(reader, line)) {
    if (static_cast<std::int64_t>(lines.size()) == file.tasks)
      reader.fail("more task lines than the " + std::to_string(file.tasks) + " tasks declared");
    lines.push_back(parse_task_line(reader, line, file.tasks));
  }
  if (static_cast<std::int64_t>(lines.size()) != file.tasks)
    reader.fail_file("declares " + std::to_string(file.tasks) + " tasks but has " + std::to_string(lines.size()) +
                     " task lines");
  file.slot_of = to_permutation(reader, lines, file.tasks);
  return file;
}

MappingFile read_mapping_file(const std::string& path) {
  auto in = io::open_input(path);
  return parse_mapping_file(in, path);
}

void write_mapping_file(std::ostream& out, const MappingFile& file) {
  check_record(file);
  out << "rankmap-mapping " << kVersion << '\n'
      << "tasks " << file.tasks << '\n'
      << "graph " << hash_to_hex(file.graph_hash) << '\n'
      << "allocation " << hash_to_hex(file.allocation_hash) << '\n'
      << "algorithm " << file.algorithm;
  if (file.objective) out << ' ' << format_number(*file.objective);
  out << '\n';
  for (TaskId t = 0; t < file.tasks; ++t) out << t << ' ' << file.slot_of[t] << '\n';
}

void write_mapping_file(const std::string& path, const MappingFile& file) {
  check_record(file);
  auto out = io::open_output(path);
  write_mapping_file(out, file);
  io::close_output(out, path);
}

void check_mapping_matches(const MappingFile& file, const graph::CommGraph& graph, const topology::Allocation& alloc,
                           std::string_view source) {
  const std::string where(source);
  if (file.tasks != graph.num_tasks())
    throw InputError(where + ": the mapping has " + std::to_string(file.tasks) + " tasks but the graph has " +
                     std::to_string(graph.num_tasks()));
  if (file.tasks != alloc.num_slots())
    throw InputError(where + ": the mapping has " + std::to_string(file.tasks) + " tasks but the allocation has " +
                     std::to_string(alloc.num_slots()) + " slots");
  if (const std::uint64_t h = graph.canonical_hash(); h != file.graph_hash)
    throw InputError(where + ": graph hash " + hash_to_hex(file.graph_hash) + " does not match the graph (" +
                     hash_to_hex(h) + "); the mapping was computed for another communication graph");
  if (const std::uint64_t h = alloc.hash(); h != file.allocation_hash)
    throw InputError(where + ": allocation hash " + hash_to_hex(file.allocation_hash) +
                     " does not match the allocation (" + hash_to_hex(h) +
                     "); the mapping was computed for other nodes or another slot order");
}

}  // namespace rankmap::mapping
