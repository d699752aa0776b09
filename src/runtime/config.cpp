// The option table of the runtime (Caliper style) and its parsing from the environment.
#include "config.hpp"

#include <rankmap/hash.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <unistd.h>

extern char** environ;

namespace rankmap::runtime {

namespace {

double parse_number(std::string_view text) {
  double value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size() || !std::isfinite(value))
    throw InputError("'" + std::string(text) + "' is not a number");
  return value;
}

void apply_disable(Config& c, std::string_view v) {
  if (v == "1" || v == "yes" || v == "true" || v == "on") c.disable = true;
  else if (v == "0" || v == "no" || v == "false" || v == "off" || v.empty()) c.disable = false;
  else throw InputError("'" + std::string(v) + "': expected 1 or 0");
}

struct ReorderName {
  std::string_view name;
  unsigned bits;
};
constexpr ReorderName kReorderNames[] = {{"none", reorder_none},
                                         {"dist_graph", reorder_dist_graph},
                                         {"cart", reorder_cart},
                                         {"graph", reorder_graph},
                                         {"all", reorder_all}};

void apply_reorder(Config& c, std::string_view v) {
  unsigned bits = reorder_none;
  for (std::size_t pos = 0; pos <= v.size();) {
    const std::size_t end = std::min(v.find(',', pos), v.size());
    const std::string_view word = v.substr(pos, end - pos);
    const auto* known = std::find_if(std::begin(kReorderNames), std::end(kReorderNames),
                                     [&](const ReorderName& n) { return n.name == word; });
    if (known == std::end(kReorderNames))
      throw InputError("'" + std::string(v) + "': '" + std::string(word) +
                       "' is not one of none, dist_graph, cart, graph, all (a comma-separated list)");
    bits |= known->bits;
    pos = end + 1;
  }
  c.reorder = bits;
}

void apply_profile(Config& c, std::string_view v) { c.profile_prefix = std::string(v); }

void apply_profile_phases(Config& c, std::string_view v) {
  if (v == "none")
    c.profile_phases = {};
  else if (v.empty() || v == "steps")
    c.profile_phases = {PhaseRule::Kind::steps, 0};
  else if (v == "pcontrol")
    c.profile_phases = {PhaseRule::Kind::pcontrol, 0};
  else if (v.starts_with("time:")) {
    const double seconds = parse_number(v.substr(5));
    if (!(seconds > 0)) throw InputError("'" + std::string(v) + "': the window must be longer than 0 seconds");
    c.profile_phases = {PhaseRule::Kind::time, seconds};
  } else {
    throw InputError("'" + std::string(v) + "': expected steps, pcontrol, time:SECONDS or none");
  }
}

void apply_algorithm(Config& c, std::string_view v) {
  if (v.empty()) throw InputError("'': expected auto or an algorithm chain such as mahd+refine");
  for (std::string_view stage : mapping::chain_stages(v)) {
    if (!mapping::find_algorithm(mapping::core_algorithms(), stage)) {
      std::string known;
      for (const auto& a : mapping::core_algorithms()) known += (known.empty() ? "" : ", ") + std::string(a.name);
      throw InputError("'" + std::string(v) + "': '" + std::string(stage) + "' is not an algorithm of the runtime (" +
                       known + "); offline algorithms run with `rankmap map` and RANKMAP_MAPPING");
    }
  }
  c.algorithm = std::string(v);
}

void apply_objective(Config& c, std::string_view v) { c.objective = mapping::parse_objective(v); }
void apply_routing(Config& c, std::string_view v) { c.routing = topology::RoutingSpec::parse(v); }
void apply_coords(Config& c, std::string_view v) { c.coords = coords::CoordsSpec::parse(v); }
void apply_mapping(Config& c, std::string_view v) { c.mapping_path = std::string(v); }
void apply_dump(Config& c, std::string_view v) { c.dump_dir = std::string(v); }
void apply_report(Config& c, std::string_view v) { c.report = std::string(v); }

void apply_budget(Config& c, std::string_view v) {
  const double ms = parse_number(v);
  if (ms < 0 || ms > 3.6e6) throw InputError("'" + std::string(v) + "': expected milliseconds from 0 to 3600000");
  c.time_budget_ms = ms;
}

void apply_threads(Config& c, std::string_view v) {
  if (v == "auto") {
    c.threads = 0;
    return;
  }
  int n = 0;
  const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (v.empty() || ec != std::errc{} || ptr != v.data() + v.size() || n < 1 || n > 256)
    throw InputError("'" + std::string(v) + "': expected auto or a whole number from 1 to 256");
  c.threads = n;
}

void apply_min_gain(Config& c, std::string_view v) {
  const double gain = parse_number(v);
  if (gain < 0 || gain >= 1) throw InputError("'" + std::string(v) + "': expected a fraction from 0 up to (not including) 1");
  c.min_gain = gain;
}

constexpr OptionInfo kOptions[] = {
    {"RANKMAP_DISABLE", "bool", "0", "1 makes every interposed call a pass-through to MPI; set it for the whole job",
     &apply_disable},
    {"RANKMAP_REORDER", "list", "none",
     "which interposed topology calls with reorder true are renumbered: none (advice in the report only), "
     "dist_graph, cart, graph or all, comma-separated",
     &apply_reorder},
    {"RANKMAP_ALGO", "string", "auto",
     "auto (a precomputed mapping if one matches, else the auto portfolio within the time budget; "
     "auto:attempts=N for a result independent of the clock) or an algorithm chain of the runtime such as "
     "mahd+refine or dimorder-best",
     &apply_algorithm},
    {"RANKMAP_OBJECTIVE", "string", "mcl",
     "what the mapping minimises and the do-no-harm test compares: mcl or hopbytes", &apply_objective},
    {"RANKMAP_ROUTING", "string", "default",
     "routing model MCL is measured under: default (adaptive on tori and meshes, dmodk on fat-trees, minimal on "
     "dragonflies), adaptive, adaptive-hop, dor or dor:<order>, dmodk, minimal or valiant",
     &apply_routing},
    {"RANKMAP_COORDS", "string", "auto",
     "where processes run: auto (BG/Q, then Cray, then host names only), file:PATH, "
     "emulate:<grid>[,ppn=N][,sockets=S], bgq, cray or hostname",
     &apply_coords},
    {"RANKMAP_MAPPING", "path", "", "a mapping file, or a directory of them, used when tasks and hashes match",
     &apply_mapping},
    {"RANKMAP_DUMP", "path", "", "directory where rank 0 writes the graph, allocation and mapping of each reorder",
     &apply_dump},
    {"RANKMAP_REPORT", "string", "", "stderr or a file path: one line per reorder", &apply_report},
    {"RANKMAP_TIME_BUDGET_MS", "number", "200", "how long the mapping search may run, in milliseconds", &apply_budget},
    {"RANKMAP_THREADS", "string", "auto",
     "threads rank 0 maps with: auto (the cores rank 0 may run on, at most one per process of the communicator "
     "on its node, since those wait for the mapping without spinning) or a count from 1 to 256",
     &apply_threads},
    {"RANKMAP_MIN_GAIN", "number", "0.02", "relative improvement of the objective required before ranks are reordered",
     &apply_min_gain},
    {"RANKMAP_PROFILE", "path", "",
     "PREFIX: count the bytes each process sends to each other one and write PREFIX.mtx and PREFIX.coords "
     "at MPI_Finalize",
     &apply_profile},
    {"RANKMAP_PROFILE_PHASES", "string", "steps",
     "with RANKMAP_PROFILE: steps (phases found from when processes wait), pcontrol (each MPI_Pcontrol call "
     "starts a phase), time:SECONDS (fixed windows) or none; adds PREFIX.phase<k>.mtx unless none",
     &apply_profile_phases},
};

std::vector<std::string> rankmap_variables_in_environment() {
  std::vector<std::string> names;
  for (char** e = environ; e && *e; ++e) {
    const std::string_view entry(*e);
    if (entry.starts_with("RANKMAP_")) names.emplace_back(entry.substr(0, entry.find('=')));
  }
  return names;
}

}  // namespace

graph::PhaseOrigin phase_origin_of(PhaseRule::Kind kind) {
  switch (kind) {
    case PhaseRule::Kind::none: return graph::PhaseOrigin::none;
    case PhaseRule::Kind::pcontrol: return graph::PhaseOrigin::pcontrol;
    case PhaseRule::Kind::time: return graph::PhaseOrigin::time;
    case PhaseRule::Kind::steps: return graph::PhaseOrigin::steps;
  }
  return graph::PhaseOrigin::none;
}

std::span<const OptionInfo> options() { return kOptions; }

std::string reorder_setting_for(ReorderCall call) {
  for (const ReorderName& n : kReorderNames)
    if (n.bits == call) return std::string(n.name);
  return "all";
}

ConfigResult read_config(const EnvLookup& lookup, std::span<const std::string> present_names) {
  ConfigResult result;
  StableHash hash;
  for (const OptionInfo& option : kOptions) {
    const char* raw = lookup(std::string(option.name).c_str());
    const std::string_view value = raw ? std::string_view(raw) : option.default_value;
    hash.bytes(value.data(), value.size());
    hash.u64(value.size());
    try {
      option.apply(result.config, value);
    } catch (const InputError& e) {
      result.errors.push_back(std::string(option.name) + ": " + e.what());
    }
  }
  for (const std::string& name : present_names) {
    bool known = false;
    for (const OptionInfo& option : kOptions) known = known || option.name == name;
    if (!known) result.warnings.push_back(name + " is not a rankmap variable and is ignored");
  }
  // The default routing is an assumption the do-no-harm test hedges; a stated one is not.
  result.config.routing_stated = lookup("RANKMAP_ROUTING") != nullptr;
  result.hash = hash.digest();
  return result;
}

ConfigResult read_config_from_environment() {
  const auto names = rankmap_variables_in_environment();
  return read_config([](const char* name) { return std::getenv(name); }, names);
}

}  // namespace rankmap::runtime
