// Formatting and writing the per-reorder report, and once-only log messages.
#include "report.hpp"

#include <cstdio>
#include <mutex>
#include <set>

namespace rankmap::runtime {

namespace {

std::mutex& output_mutex() {
  static std::mutex m;
  return m;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

std::string format_report_line(std::string_view call, TaskId tasks, const Decision& d) {
  std::string line = "rankmap: " + std::string(call) + " tasks=" + std::to_string(tasks);
  line += " algorithm=" + (d.algorithm.empty() ? std::string("none") : d.algorithm);
  if (!d.objective.empty()) {
    line += " objective=" + d.objective + " before=" + number(d.before) + " after=" + number(d.after);
    line += " gain=" + number(d.before > 0 ? (d.before - d.after) / d.before : 0.0);
  }
  line += " time_ms=" + number(d.seconds * 1e3);
  line += d.applied ? " applied=yes" : " applied=no";
  if (!d.note.empty()) line += " note=\"" + d.note + "\"";
  return line;
}

void write_report(const std::string& destination, const std::string& line) {
  std::lock_guard lock(output_mutex());
  if (destination == "stderr") {
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
    return;
  }
  if (FILE* f = std::fopen(destination.c_str(), "a")) {
    std::fprintf(f, "%s\n", line.c_str());
    std::fclose(f);
    return;
  }
  static bool warned = false;
  if (!warned) std::fprintf(stderr, "rankmap: RANKMAP_REPORT: cannot open '%s' for appending\n", destination.c_str());
  warned = true;
}

void log_once(std::string_view key, std::string_view text) {
  std::lock_guard lock(output_mutex());
  static std::set<std::string, std::less<>> done;
  if (!done.emplace(key).second) return;
  std::fprintf(stderr, "rankmap: %.*s\n", static_cast<int>(text.size()), text.data());
  std::fflush(stderr);
}

}  // namespace rankmap::runtime
