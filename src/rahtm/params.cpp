// Parsing of rahtm's parameters.
#include "params.hpp"

#include <rankmap/topology/grid.hpp>

#include <charconv>
#include <string>

namespace rankmap::rahtm {

namespace {

constexpr ParamInfo kParams[] = {
    {"grid", "inferred", "task grid, e.g. 128x128: tasks numbered row-major over it (dimension 0 slowest)"},
    {"cluster", "auto", "auto, tile or metis: how tasks are grouped into nodes and blocks"},
    {"cube", "4", "most grid dimensions halved per level (1..6): the size of each level's MILP"},
    {"cube-sizes", "2", "hierarchies are built with at most cube, cube-1, ... dimensions per level, this many sizes"},
    {"uneven", "both", "bottom, top or both: where dimensions shorter than the others are halved"},
    {"milp", "on", "on or off: solve each distinct cube problem with CBC after the local search"},
    {"milp-nodes", "50", "branch-and-bound nodes per cube MILP"},
    {"milp-columns", "5000", "largest MILP (in columns) given to CBC; larger cube problems keep the local search result"},
    {"milp-seconds", "30", "safety time limit per MILP (a run stopped by it may differ from run to run)"},
    {"kicks", "300", "perturbations of the cube local search"},
};

int parse_int(std::string_view key, std::string_view value, int low, int high) {
  int v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size() || v < low || v > high)
    throw InputError("rahtm: " + std::string(key) + "=" + std::string(value) + ": expected an integer from " +
                     std::to_string(low) + " to " + std::to_string(high));
  return v;
}

void set(RahtmParams& p, std::string_view key, std::string_view value) {
  auto bad = [&](std::string_view expected) {
    return InputError("rahtm: " + std::string(key) + "=" + std::string(value) + ": expected " + std::string(expected));
  };
  if (key == "grid") {
    p.clustering.task_grid = topology::parse_extents(value, "rahtm grid");
  } else if (key == "cluster") {
    if (value == "auto") p.clustering.mode = ClusterMode::automatic;
    else if (value == "tile") p.clustering.mode = ClusterMode::tile;
    else if (value == "metis") p.clustering.mode = ClusterMode::metis;
    else throw bad("auto, tile or metis");
  } else if (key == "cube") {
    p.max_cube_dims = parse_int(key, value, 1, kMaxCubeDims);
  } else if (key == "cube-sizes") {
    p.cube_sizes = parse_int(key, value, 1, kMaxCubeDims);
  } else if (key == "uneven") {
    if (value == "bottom") p.uneven = UnevenOrder::bottom;
    else if (value == "top") p.uneven = UnevenOrder::top;
    else if (value == "both") p.uneven = UnevenOrder::both;
    else throw bad("bottom, top or both");
  } else if (key == "milp") {
    if (value != "on" && value != "off") throw bad("on or off");
    p.use_milp = value == "on";
  } else if (key == "milp-nodes") {
    p.milp_nodes = parse_int(key, value, 0, 100000000);
  } else if (key == "milp-columns") {
    p.milp_max_columns = parse_int(key, value, 1, 100000000);
  } else if (key == "milp-seconds") {
    p.milp_seconds = parse_int(key, value, 1, 1000000);
  } else if (key == "kicks") {
    p.kicks = parse_int(key, value, 0, 100000000);
  } else {
    std::string known;
    for (const ParamInfo& info : kParams) known += (known.empty() ? "" : ", ") + std::string(info.name);
    throw InputError("rahtm: unknown parameter '" + std::string(key) + "' (known: " + known + ")");
  }
}

}  // namespace

std::span<const ParamInfo> rahtm_param_table() { return kParams; }

RahtmParams parse_rahtm_params(std::string_view text) {
  RahtmParams params;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = std::min(text.find(',', pos), text.size());
    const std::string_view item = text.substr(pos, end - pos);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw InputError("rahtm: parameter '" + std::string(item) + "' is not of the form key=value");
    set(params, item.substr(0, eq), item.substr(eq + 1));
    pos = end + 1;
  }
  return params;
}

}  // namespace rankmap::rahtm
