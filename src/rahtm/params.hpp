// The `rahtm:key=value,...` parameters: one table of name, type, default, help and how each is stored.
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

/// The defaults here are the ones the table in params.cpp shows (a unit test applies every
/// default of the table and compares).
struct RahtmParams {
  ClusteringParams clustering;
  int max_cube_dims = 4;
  /// Cube sizes tried: max_cube_dims, max_cube_dims - 1, ... (at least 1). Which one splits a grid
  /// best depends on the pattern (on 4x4x4x4x2, NAS BT prefers 3, CG and SP 4).
  int cube_sizes = 2;
  UnevenOrder uneven = UnevenOrder::both;
  bool use_milp = true;
  int milp_nodes = 50;
  int milp_max_columns = 5000;
  double milp_seconds = 30;
  int kicks = 300;
  int beam = 64;  ///< partial solutions the merge keeps per step
  friend bool operator==(const RahtmParams&, const RahtmParams&) = default;
};

/// One parameter: what it is called, what it takes, its default, what it does, and how a value
/// is stored (throwing InputError with a message that does not repeat the name).
struct ParamRow {
  std::string_view name;
  std::string_view type;
  std::string_view default_value;
  std::string_view help;
  void (*apply)(RahtmParams&, std::string_view value);
};

/// Every parameter rahtm accepts, in the order `rankmap map --help` and docs/rahtm.md list them.
std::span<const ParamRow> param_rows();

/// Parses `grid=128x128,cluster=tile,...` over the defaults; throws InputError naming the key or
/// value at fault.
RahtmParams parse_rahtm_params(std::string_view text);

}  // namespace rankmap::rahtm
