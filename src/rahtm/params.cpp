// The table of rahtm's parameters (in the style of the runtime's option table) and their parsing.
#include "params.hpp"

#include <rankmap/mapping/offline.hpp>
#include <rankmap/topology/grid.hpp>

#include <charconv>
#include <string>

namespace rankmap::rahtm {

namespace {

int parse_int(std::string_view value, int low, int high) {
  int v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size() || v < low || v > high)
    throw InputError("expected an integer from " + std::to_string(low) + " to " + std::to_string(high));
  return v;
}

void apply_grid(RahtmParams& p, std::string_view v) {
  if (v == "inferred") p.clustering.task_grid.clear();
  else p.clustering.task_grid = topology::parse_extents(v, "task grid");
}

void apply_cluster(RahtmParams& p, std::string_view v) {
  if (v == "auto") p.clustering.mode = ClusterMode::automatic;
  else if (v == "tile") p.clustering.mode = ClusterMode::tile;
  else if (v == "metis") p.clustering.mode = ClusterMode::metis;
  else throw InputError("expected auto, tile or metis");
}

void apply_cube(RahtmParams& p, std::string_view v) { p.max_cube_dims = parse_int(v, 1, kMaxCubeDims); }
void apply_cube_sizes(RahtmParams& p, std::string_view v) { p.cube_sizes = parse_int(v, 1, kMaxCubeDims); }

void apply_uneven(RahtmParams& p, std::string_view v) {
  if (v == "bottom") p.uneven = UnevenOrder::bottom;
  else if (v == "top") p.uneven = UnevenOrder::top;
  else if (v == "both") p.uneven = UnevenOrder::both;
  else throw InputError("expected bottom, top or both");
}

void apply_milp(RahtmParams& p, std::string_view v) {
  if (v != "on" && v != "off") throw InputError("expected on or off");
  p.use_milp = v == "on";
}

void apply_milp_nodes(RahtmParams& p, std::string_view v) { p.milp_nodes = parse_int(v, 0, 100000000); }
void apply_milp_columns(RahtmParams& p, std::string_view v) { p.milp_max_columns = parse_int(v, 1, 100000000); }
void apply_milp_seconds(RahtmParams& p, std::string_view v) { p.milp_seconds = parse_int(v, 1, 1000000); }
void apply_kicks(RahtmParams& p, std::string_view v) { p.kicks = parse_int(v, 0, 100000000); }
void apply_beam(RahtmParams& p, std::string_view v) { p.beam = parse_int(v, 1, 100000); }

constexpr ParamRow kParams[] = {
    {"grid", "extents", "inferred",
     "task grid, e.g. 128x128: tasks numbered row-major over it (dimension 0 slowest); by default inferred",
     &apply_grid},
    {"cluster", "string", "auto", "auto, tile or metis: how tasks are grouped into nodes and blocks", &apply_cluster},
    {"cube", "int", "4", "most grid dimensions halved per level (1..6): the size of each level's MILP", &apply_cube},
    {"cube-sizes", "int", "2", "hierarchies are built with at most cube, cube-1, ... dimensions per level, this many sizes",
     &apply_cube_sizes},
    {"uneven", "string", "both", "bottom, top or both: where dimensions shorter than the others are halved",
     &apply_uneven},
    {"milp", "on|off", "on",
     "solve each distinct cube problem with CBC after the local search (skipped as the time budget runs out)",
     &apply_milp},
    {"milp-nodes", "int", "50", "branch-and-bound nodes per cube MILP", &apply_milp_nodes},
    {"milp-columns", "int", "5000",
     "largest MILP (in columns) given to CBC; larger cube problems keep the local search result", &apply_milp_columns},
    {"milp-seconds", "int", "30",
     "safety time limit per MILP (wall clock), lowered to what the time budget leaves (a run stopped by it may differ "
     "from run to run)",
     &apply_milp_seconds},
    {"kicks", "int", "300", "perturbations of the cube local search", &apply_kicks},
    {"beam", "int", "64", "partial solutions the merge keeps per step (narrowed as the time budget runs out)",
     &apply_beam},
};

}  // namespace

std::span<const ParamRow> param_rows() { return kParams; }

RahtmParams parse_rahtm_params(std::string_view text) {
  RahtmParams params;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = std::min(text.find(',', pos), text.size());
    const std::string_view item = text.substr(pos, end - pos);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw InputError("rahtm: parameter '" + std::string(item) + "' is not of the form key=value");
    const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    const ParamRow* row = nullptr;
    for (const ParamRow& r : kParams) row = r.name == key ? &r : row;
    if (!row) {
      std::string known;
      for (const ParamRow& r : kParams) known += (known.empty() ? "" : ", ") + std::string(r.name);
      throw InputError("rahtm: unknown parameter '" + std::string(key) + "' (known: " + known + ")");
    }
    try {
      row->apply(params, value);
    } catch (const InputError& e) {
      throw InputError("rahtm: " + std::string(item) + ": " + e.what());
    }
    pos = end + 1;
  }
  return params;
}

}  // namespace rankmap::rahtm

namespace rankmap::mapping {

std::vector<ParameterInfo> rahtm_parameters() {
  std::vector<ParameterInfo> out;
  for (const rahtm::ParamRow& r : rahtm::param_rows()) out.push_back({r.name, r.type, r.default_value, r.help});
  return out;
}

}  // namespace rankmap::mapping
