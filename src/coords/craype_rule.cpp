// Parsing the craype rule and applying it: cabinet, chassis and blade to Slingshot group, switch and port.
#include "craype_rule.hpp"

#include <rankmap/types.hpp>

#include <charconv>

namespace rankmap::coords {

namespace {

int parse_value(std::string_view text, std::string_view key, std::string_view whole, int min) {
  int v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size() || v < min || v > 99999)
    throw InputError("RANKMAP_COORDS=craype:" + std::string(whole) + ": " + std::string(key) + " must be an integer from " +
                     std::to_string(min) + " to 99999");
  return v;
}

}  // namespace

CrayPeRule CrayPeRule::parse(std::string_view options) {
  CrayPeRule rule;
  struct Field {
    const char* key;
    int CrayPeRule::*member;
    int min;
  };
  static constexpr Field kFields[] = {
      {"cab0", &CrayPeRule::cab0, 0},         {"cabinets", &CrayPeRule::cabinets, 1}, {"groups", &CrayPeRule::groups, 1},
      {"chassis", &CrayPeRule::chassis, 1},   {"switches", &CrayPeRule::switches, 1}, {"slots", &CrayPeRule::slots, 1},
      {"boards", &CrayPeRule::boards, 1},     {"nodes", &CrayPeRule::nodes, 1},       {"global", &CrayPeRule::global, 1}};
  std::string_view rest = options;
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find(','), rest.size());
    const std::string_view option = rest.substr(0, end);
    const std::size_t eq = option.find('=');
    const std::string_view key = option.substr(0, eq);
    const Field* field = nullptr;
    for (const Field& f : kFields)
      if (key == f.key) field = &f;
    if (eq == std::string_view::npos || field == nullptr)
      throw InputError("RANKMAP_COORDS=craype:" + std::string(options) + ": unknown option '" + std::string(option) +
                       "'; expected key=value with key one of cab0, cabinets, groups, chassis, switches, slots, "
                       "boards, nodes, global");
    rule.*(field->member) = parse_value(option.substr(eq + 1), key, options, field->min);
    rest = end == rest.size() ? std::string_view() : rest.substr(end + 1);
  }
  if (rule.slots % rule.switches != 0)
    throw InputError("RANKMAP_COORDS=craype:" + std::string(options) + ": slots (" + std::to_string(rule.slots) +
                     ") must be a multiple of switches (" + std::to_string(rule.switches) + ")");
  try {
    (void)rule.network();
  } catch (const InputError& e) {
    throw InputError("RANKMAP_COORDS=craype:" + std::string(options) + ": " + e.what());
  }
  return rule;
}

topology::Dragonfly CrayPeRule::network() const {
  const long long routers = static_cast<long long>(cabinets) * chassis * switches;
  const long long ports = static_cast<long long>(slots / switches) * boards * nodes;
  if (routers > 99999 || ports > 99999) throw InputError("the rule gives more than 99999 switches or nodes per switch");
  topology::Dragonfly::Params p;
  p.groups = groups;
  p.blue_links = global;
  p.routers = static_cast<int>(routers);
  p.nodes = static_cast<int>(ports);
  return topology::Dragonfly(p);
}

NodeId CrayPeRule::node_of(const Xname& x, std::string_view source) const {
  const auto outside = [&](const char* what, int value, int limit) {
    return InputError(std::string(source) + ": " + what + " " + std::to_string(value) + " lies outside the craype rule (" +
                      std::to_string(limit) + " per level); set RANKMAP_COORDS=craype:... (docs/runtime.md)");
  };
  const int cabinet = x.cabinet - cab0;
  if (cabinet < 0 || cabinet / cabinets >= groups)
    throw InputError(std::string(source) + ": cabinet " + std::to_string(x.cabinet) + " lies outside cabinets " +
                     std::to_string(cab0) + ".." + std::to_string(cab0 + groups * cabinets - 1) +
                     " of the craype rule; set RANKMAP_COORDS=craype:cab0=...,groups=... (docs/runtime.md)");
  if (x.chassis >= chassis) throw outside("chassis", x.chassis, chassis);
  if (x.slot >= slots) throw outside("slot", x.slot, slots);
  if (x.board >= boards) throw outside("board", x.board, boards);
  if (x.node >= nodes) throw outside("node", x.node, nodes);
  const int per_switch = slots / switches;
  const std::int64_t group = cabinet / cabinets;
  const std::int64_t router = ((cabinet % cabinets) * chassis + x.chassis) * switches + x.slot / per_switch;
  const std::int64_t port = ((x.slot % per_switch) * boards + x.board) * nodes + x.node;
  const topology::Dragonfly::Params p = network().params();
  return static_cast<NodeId>((group * p.routers + router) * p.nodes + port);
}

}  // namespace rankmap::coords
