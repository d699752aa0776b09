// How a RANKMAP_PROFILE profile's phases were found, as its summary (PREFIX.summary) says.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

namespace rankmap::graph {

/// The `phase_rule` of a profile summary. `unstated` for summaries written before it was recorded.
enum class PhaseOrigin { unstated, none, pcontrol, time, steps };

/// Reads the `phase_rule` line of a summary (docs/formats.md) and skips the others. Throws
/// InputError naming `source` and the line for a value other than none, pcontrol, time or steps,
/// or for a second `phase_rule` line.
PhaseOrigin parse_phase_origin(std::istream& in, std::string_view source);

/// The same for the file at `path`; throws InputError when it cannot be read.
PhaseOrigin read_phase_origin(const std::string& path);

/// Whether such phases are the mapping's objective: phases the program marked with MPI_Pcontrol
/// say how it runs, and unstated ones were taken so before the summary said. Phases found from
/// steps or time windows only hedge, since they can split one exchange that overlaps on the
/// network (mapping::MapOptions::hedge_phases).
bool phases_are_objective(PhaseOrigin origin);

/// The summary's word for `origin`; empty for unstated.
std::string_view to_string(PhaseOrigin origin);

}  // namespace rankmap::graph
