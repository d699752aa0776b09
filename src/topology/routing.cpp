// Routing specs and the factory that turns one into a model for a grid.
#include <rankmap/topology/routing.hpp>

#include "routing_models.hpp"

#include <algorithm>

namespace rankmap::topology {

RoutingSpec RoutingSpec::parse(std::string_view spec) {
  RoutingSpec r;
  if (spec == "adaptive") {
    r.kind = RoutingKind::adaptive;
  } else if (spec == "adaptive-hop") {
    r.kind = RoutingKind::adaptive_hop;
  } else if (spec == "dor") {
    r.kind = RoutingKind::dor;
  } else if (spec.starts_with("dor:") && spec.size() > 4) {
    r.kind = RoutingKind::dor;
    for (char c : spec.substr(4)) {
      if (c < '0' || c >= '0' + kMaxDims)
        throw InputError("routing '" + std::string(spec) + "': dor:<order> lists dimension digits, e.g. dor:210");
      r.dim_order.push_back(c - '0');
    }
  } else {
    throw InputError("routing '" + std::string(spec) + "': expected adaptive, adaptive-hop, dor or dor:<order>");
  }
  return r;
}

std::string RoutingSpec::to_string() const {
  switch (kind) {
    case RoutingKind::adaptive: return "adaptive";
    case RoutingKind::adaptive_hop: return "adaptive-hop";
    case RoutingKind::dor: break;
  }
  std::string s = "dor";
  if (!dim_order.empty()) {
    s += ':';
    for (int d : dim_order) s += static_cast<char>('0' + d);
  }
  return s;
}

std::unique_ptr<RoutingModel> make_routing_model(const Grid& grid, const RoutingSpec& spec) {
  switch (spec.kind) {
    case RoutingKind::adaptive: return std::make_unique<detail::AdaptiveRouting>(grid);
    case RoutingKind::adaptive_hop: return std::make_unique<detail::AdaptiveHopRouting>(grid);
    case RoutingKind::dor: break;
  }
  std::vector<int> order = spec.dim_order;
  if (order.empty())
    for (int d = 0; d < grid.ndims(); ++d) order.push_back(d);
  std::vector<int> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  bool is_permutation = static_cast<int>(sorted.size()) == grid.ndims();
  for (int d = 0; is_permutation && d < grid.ndims(); ++d) is_permutation = sorted[d] == d;
  if (!is_permutation)
    throw InputError("routing '" + spec.to_string() + "': the order must list each of the " +
                     std::to_string(grid.ndims()) + " dimensions of " + grid.to_string() + " once");
  return std::make_unique<detail::DorRouting>(grid, std::move(order));
}

std::unique_ptr<RoutingModel> make_routing_model(const Grid& grid, std::string_view spec) {
  return make_routing_model(grid, RoutingSpec::parse(spec));
}

}  // namespace rankmap::topology
