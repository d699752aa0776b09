// The configurable rule from an HPE Cray EX xname to a node of a SimGrid dragonfly (Slingshot).
#pragma once

#include "xname.hpp"

#include <rankmap/topology/dragonfly.hpp>

#include <string>
#include <string_view>

namespace rankmap::coords {

/// How a site's cabinets, chassis and blades form Slingshot groups and switches. Each Slingshot
/// group is one SimGrid group with one chassis whose R routers are joined all-to-all (Slingshot
/// joins every pair of switches of a group directly), so the network is
/// `dragonfly:G,global;1,1;R,1;N` with R = cabinets * chassis * switches and
/// N = slots / switches * boards * nodes. Defaults: Perlmutter's CPU partition (docs/runtime.md).
struct CrayPeRule {
  int cab0 = 1000;     ///< number of the first cabinet of the first group
  int cabinets = 1;    ///< cabinets per group
  int groups = 12;     ///< groups in the network
  int chassis = 8;     ///< chassis per cabinet
  int switches = 2;    ///< switch blades per chassis; slots are split evenly between them
  int slots = 8;       ///< compute blade slots per chassis
  int boards = 2;      ///< node cards (boards) per blade
  int nodes = 2;       ///< nodes per board
  int global = 1;      ///< parallel global links between two groups

  /// Parses the options after `craype:`: `key=value` pairs separated by commas, keys as the
  /// fields above. Empty text gives the defaults. Throws InputError naming RANKMAP_COORDS.
  static CrayPeRule parse(std::string_view options);

  topology::Dragonfly network() const;
  /// The dragonfly node of `x`; throws InputError naming `source` when `x` lies outside the rule.
  NodeId node_of(const Xname& x, std::string_view source) const;
};

}  // namespace rankmap::coords
