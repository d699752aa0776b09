// The runtime's options: one table of name, type, default and help, read from the environment once.
#pragma once

#include "provider.hpp"

#include <rankmap/graph/profile_summary.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/topology/routing.hpp>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::runtime {

/// The topology calls whose ranks may be renumbered (RANKMAP_REORDER), as bits.
enum ReorderCall : unsigned {
  reorder_none = 0,
  reorder_dist_graph = 1,
  reorder_cart = 2,
  reorder_graph = 4,
  reorder_all = 7
};

/// When a profile starts a new phase (RANKMAP_PROFILE_PHASES).
struct PhaseRule {
  enum class Kind { none, pcontrol, time, steps };
  Kind kind = Kind::none;
  double seconds = 0;  ///< time: the length of each window
};

struct Config {
  bool disable = false;
  unsigned reorder = reorder_none;  ///< ReorderCall bits; the interposed calls only, never the C API
  std::string algorithm = "auto";
  mapping::Objective objective = mapping::Objective::mcl;
  topology::RoutingSpec routing;
  bool routing_stated = false;  ///< RANKMAP_ROUTING was set: no second routing is checked (mapping/acceptance.hpp)
  coords::CoordsSpec coords;
  std::string mapping_path;  ///< a mapping file or a directory of them; empty for none
  std::string dump_dir;      ///< empty for no dump
  std::string report;        ///< empty, "stderr" or a file path
  double time_budget_ms = 200;
  int threads = 0;  ///< RANKMAP_THREADS: a count, or 0 for automatic (mapping_threads.hpp)
  double min_gain = 0.02;
  std::string profile_prefix;  ///< empty for no traffic profile
  /// steps by default: `rankmap place` scores on the whole graph and uses phases found from steps to
  /// refuse a mapping that would load them more under the static routing, which made BT's sweeps
  /// slower on SimGrid's torus (docs/runtime.md, "Phases from steps").
  PhaseRule profile_phases{PhaseRule::Kind::steps, 0};
};

/// What a profile's summary records for phases found by a rule of this kind: the one vocabulary
/// that the profile's writer and `rankmap place`'s reader share (graph/profile_summary.hpp).
graph::PhaseOrigin phase_origin_of(PhaseRule::Kind kind);

/// `dist_graph`, `cart`, `graph`, `all` or `none` as one word for messages.
std::string reorder_setting_for(ReorderCall call);

/// One environment variable: what it is called, what it takes, its default, and what it does.
struct OptionInfo {
  std::string_view name;
  std::string_view type;
  std::string_view default_value;
  std::string_view help;
  /// Stores a value into the config; throws InputError with a message that does not repeat the name.
  void (*apply)(Config&, std::string_view value);
};

/// Every option, in documentation order.
std::span<const OptionInfo> options();

struct ConfigResult {
  Config config;
  std::vector<std::string> errors;    ///< one per bad value, each naming its variable
  std::vector<std::string> warnings;  ///< RANKMAP_* variables that are not options (likely typos)
  std::uint64_t hash = 0;             ///< of every option's raw value, to check all processes agree
  bool ok() const { return errors.empty(); }
};

/// Looks a variable up (getenv in production); nullptr when unset.
using EnvLookup = std::function<const char*(const char*)>;

/// Reads every option through `lookup`; `present_names` lists the RANKMAP_* variables that are set,
/// so that unknown ones can be warned about.
ConfigResult read_config(const EnvLookup& lookup, std::span<const std::string> present_names);
/// read_config() on the process environment.
ConfigResult read_config_from_environment();

}  // namespace rankmap::runtime
