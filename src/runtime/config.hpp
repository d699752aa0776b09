// The runtime's options: one table of name, type, default and help, read from the environment once.
#pragma once

#include "provider.hpp"

#include <rankmap/mapping/mapping.hpp>
#include <rankmap/topology/routing.hpp>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::runtime {

struct Config {
  bool disable = false;
  std::string algorithm = "auto";
  mapping::Objective objective = mapping::Objective::mcl;
  topology::RoutingSpec routing;
  coords::CoordsSpec coords;
  std::string mapping_path;  ///< a mapping file or a directory of them; empty for none
  std::string dump_dir;      ///< empty for no dump
  std::string report;        ///< empty, "stderr" or a file path
  double time_budget_ms = 200;
  double min_gain = 0.02;
};

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
