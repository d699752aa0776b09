// The `rahtm:key=value,...` parameters, declared once with their defaults and help.
#pragma once

#include "clustering.hpp"

#include <span>
#include <string_view>

namespace rankmap::rahtm {

enum class UnevenOrder {
  bottom,  ///< longest dimensions halved first; short ones (BG/Q's E) at the bottom
  top,     ///< short dimensions halved first: even sub-grids, merged at the top
  both,    ///< run both hierarchies and keep the lower MCL (only when they differ)
};

struct RahtmParams {
  ClusteringParams clustering;
  int max_cube_dims = 4;
  UnevenOrder uneven = UnevenOrder::both;
  bool use_milp = true;
  int milp_nodes = 200;
  int kicks = 300;
};

struct ParamInfo {
  std::string_view name;
  std::string_view default_value;
  std::string_view help;
};

/// Every parameter rahtm accepts (for docs and `rankmap map --help`).
std::span<const ParamInfo> rahtm_param_table();

/// Parses `grid=128x128,cluster=tile,...`; throws InputError naming the key or value at fault.
RahtmParams parse_rahtm_params(std::string_view text);

}  // namespace rankmap::rahtm
