// Parsing RANKMAP_COORDS values.
#include "craype_rule.hpp"
#include "providers.hpp"

#include <rankmap/types.hpp>

#include <charconv>

namespace rankmap::coords {

namespace {

int parse_count(std::string_view text, std::string_view key, std::string_view whole) {
  int value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size() || value < 1 || value > 1 << 16)
    throw InputError("'" + std::string(whole) + "': " + std::string(key) + " must be an integer from 1 to 65536");
  return value;
}

/// The network spec and the options after it: a fat-tree's or dragonfly's spec has commas of its
/// own, so the options are the trailing words of the form key=value, which no spec has.
std::size_t options_start(std::string_view rest) {
  std::size_t start = rest.size();
  while (start > 0) {
    const std::size_t comma = rest.rfind(',', start - 1);
    if (comma == std::string_view::npos) break;
    const std::string_view word = rest.substr(comma + 1, start - comma - 1);
    if (word.find('=') == std::string_view::npos) break;
    start = comma;
  }
  return start;
}

CoordsSpec parse_emulation(std::string_view rest, std::string_view whole) {
  CoordsSpec spec;
  spec.kind = CoordsSpec::Kind::emulate;
  const std::size_t comma = options_start(rest);
  spec.grid = std::string(rest.substr(0, comma));
  try {
    (void)topology::Network::parse(spec.grid);
  } catch (const InputError& e) {
    throw InputError("'" + std::string(whole) + "': " + e.what());
  }
  std::string_view options = comma == rest.size() ? std::string_view() : rest.substr(comma + 1);
  while (!options.empty()) {
    const std::size_t end = std::min(options.find(','), options.size());
    const std::string_view option = options.substr(0, end);
    if (option.starts_with("ppn=")) spec.ppn = parse_count(option.substr(4), "ppn", whole);
    else if (option.starts_with("sockets=")) spec.sockets = parse_count(option.substr(8), "sockets", whole);
    else throw InputError("'" + std::string(whole) + "': unknown option '" + std::string(option) +
                          "'; expected ppn=N or sockets=S");
    options = end == options.size() ? std::string_view() : options.substr(end + 1);
  }
  if (spec.ppn % spec.sockets != 0)
    throw InputError("'" + std::string(whole) + "': ppn must be a multiple of sockets");
  return spec;
}

}  // namespace

CoordsSpec CoordsSpec::parse(std::string_view text) {
  CoordsSpec spec;
  if (text.empty() || text == "auto") return spec;
  if (text == "bgq") spec.kind = Kind::bgq;
  else if (text == "cray") spec.kind = Kind::cray;
  else if (text == "hostname") spec.kind = Kind::hostname;
  else if (text == "slurm") spec.kind = Kind::slurm;
  else if (text == "tofu" || text.starts_with("tofu:")) {
    spec.kind = Kind::tofu;
    spec.options = std::string(text.substr(std::min<std::size_t>(text.size(), 5)));
    (void)parse_tofu_shape(spec.options);
  } else if (text == "craype" || text.starts_with("craype:")) {
    spec.kind = Kind::craype;
    spec.options = std::string(text.substr(std::min<std::size_t>(text.size(), 7)));
    (void)CrayPeRule::parse(spec.options);
  }
  else if (text.starts_with("file:") && text.size() > 5) {
    spec.kind = Kind::file;
    spec.path = std::string(text.substr(5));
  } else if (text.starts_with("emulate:")) {
    return parse_emulation(text.substr(8), text);
  } else {
    throw InputError("'" + std::string(text) +
                     "': expected auto, file:PATH, emulate:<network>[,ppn=N][,sockets=S], bgq, cray, tofu[:XxYxZ], "
                     "craype[:key=value,...], slurm or hostname");
  }
  return spec;
}

}  // namespace rankmap::coords
