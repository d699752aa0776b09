// Report lines (RANKMAP_REPORT) and one-time messages on rank 0.
#pragma once

#include "decide.hpp"

#include <string>
#include <string_view>

namespace rankmap::runtime {

/// One line per reorder, with every figure as key=value so scripts and tests can read it:
/// `rankmap: MPI_Dist_graph_create_adjacent tasks=64 algorithm=mahd+refine objective=mcl before=8
/// after=2 gain=0.75 time_ms=12.5 applied=yes note="..."`.
std::string format_report_line(std::string_view call, TaskId tasks, const Decision& decision);

/// Appends a line to `destination` ("stderr" or a file path). Thread-safe; a file that cannot be
/// opened is reported once on stderr and otherwise ignored.
void write_report(const std::string& destination, const std::string& line);

/// Prints `rankmap: <text>` on stderr, once per distinct `key` in this process.
void log_once(std::string_view key, std::string_view text);

}  // namespace rankmap::runtime
