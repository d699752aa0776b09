// The phase_rule line of a profile summary.
#include <rankmap/graph/profile_summary.hpp>

#include "../io/file_streams.hpp"
#include "../io/text_reader.hpp"

#include <array>
#include <optional>

namespace rankmap::graph {

namespace {

constexpr std::array kOrigins{PhaseOrigin::none, PhaseOrigin::pcontrol, PhaseOrigin::time, PhaseOrigin::steps};

std::optional<PhaseOrigin> origin_named(std::string_view word) {
  for (PhaseOrigin origin : kOrigins)
    if (to_string(origin) == word) return origin;
  return std::nullopt;
}

}  // namespace

std::string_view to_string(PhaseOrigin origin) {
  switch (origin) {
    case PhaseOrigin::unstated: return "";
    case PhaseOrigin::none: return "none";
    case PhaseOrigin::pcontrol: return "pcontrol";
    case PhaseOrigin::time: return "time";
    case PhaseOrigin::steps: return "steps";
  }
  return "";
}

bool phases_are_objective(PhaseOrigin origin) {
  return origin == PhaseOrigin::unstated || origin == PhaseOrigin::pcontrol;
}

PhaseOrigin parse_phase_origin(std::istream& in, std::string_view source) {
  io::TextReader reader(in, source);
  std::optional<PhaseOrigin> found;
  std::string_view line;
  while (reader.next_line(line)) {
    io::Fields fields(line);
    if (fields.next() != std::string_view("phase_rule")) continue;
    if (found) reader.fail("a second phase_rule line");
    const std::optional<std::string_view> word = fields.next();
    found = word ? origin_named(*word) : std::nullopt;
    if (!found || !fields.done())
      reader.fail("phase_rule '" + std::string(word.value_or("")) + "': expected none, pcontrol, time or steps");
  }
  return found.value_or(PhaseOrigin::unstated);
}

PhaseOrigin read_phase_origin(const std::string& path) {
  std::ifstream in = io::open_input(path);
  return parse_phase_origin(in, path);
}

}  // namespace rankmap::graph
