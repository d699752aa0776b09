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
    {"uneven", "both", "bottom, top or both: where dimensions shorter than the others are halved"},
    {"milp", "on", "on or off: solve each distinct cube problem with CBC after the local search"},
    {"milp-nodes", "200", "branch-and-bound nodes per cube MILP"},
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
