// Routing specs and the factory that turns one into a model for a network.
#include <rankmap/topology/routing.hpp>

#include "network_routing.hpp"
#include "routing_models.hpp"

#include <algorithm>
#include <map>
#include <mutex>

namespace rankmap::topology {

namespace {

std::string routing_choices(const Network& network) {
  std::string text;
  const std::vector<std::string> names = network.routing_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i] + (i == 0 ? " (the default)" : "");
  return text;
}

std::unique_ptr<RoutingModel> make_grid_routing_model(const Grid& grid, const RoutingSpec& spec) {
  switch (spec.kind) {
    case RoutingKind::adaptive: return std::make_unique<detail::AdaptiveRouting>(grid);
    case RoutingKind::adaptive_hop: return std::make_unique<detail::AdaptiveHopRouting>(grid);
    case RoutingKind::dor: break;
    default: return nullptr;
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

}  // namespace

RoutingSpec RoutingSpec::parse(std::string_view spec) {
  RoutingSpec r;
  if (spec == "default") {
    r.kind = RoutingKind::standard;
  } else if (spec == "adaptive") {
    r.kind = RoutingKind::adaptive;
  } else if (spec == "adaptive-hop") {
    r.kind = RoutingKind::adaptive_hop;
  } else if (spec == "dor") {
    r.kind = RoutingKind::dor;
  } else if (spec == "dmodk") {
    r.kind = RoutingKind::dmodk;
  } else if (spec == "minimal") {
    r.kind = RoutingKind::minimal;
  } else if (spec == "valiant") {
    r.kind = RoutingKind::valiant;
  } else if (spec.starts_with("dor:") && spec.size() > 4) {
    r.kind = RoutingKind::dor;
    for (char c : spec.substr(4)) {
      if (c < '0' || c >= '0' + kMaxDims)
        throw InputError("routing '" + std::string(spec) + "': dor:<order> lists dimension digits, e.g. dor:210");
      r.dim_order.push_back(c - '0');
    }
  } else {
    throw InputError("routing '" + std::string(spec) +
                     "': expected default (every network), adaptive, adaptive-hop, dor or dor:<order> (tori and "
                     "meshes), dmodk (fat-trees), minimal or valiant (dragonflies)");
  }
  return r;
}

std::string RoutingSpec::to_string() const {
  switch (kind) {
    case RoutingKind::standard: return "default";
    case RoutingKind::adaptive: return "adaptive";
    case RoutingKind::adaptive_hop: return "adaptive-hop";
    case RoutingKind::dmodk: return "dmodk";
    case RoutingKind::minimal: return "minimal";
    case RoutingKind::valiant: return "valiant";
    case RoutingKind::dor: break;
  }
  std::string s = "dor";
  if (!dim_order.empty()) {
    s += ':';
    for (int d : dim_order) s += static_cast<char>('0' + d);
  }
  return s;
}

RoutingSpec RoutingSpec::on(const Network& network) const {
  return kind == RoutingKind::standard ? parse(network.routing_names().front()) : *this;
}

void RoutingModel::add_flows_to(NodeId dst, std::span<const SourceBytes> sources, std::span<double> loads) const {
  for (const SourceBytes& flow : sources) add_flow(flow.src, dst, flow.bytes, loads);
}

void RoutingModel::route_loads(NodeId src, NodeId dst, std::vector<ChannelShare>& out) const {
  const std::size_t first = out.size();
  route(src, dst, out);
  const Network& net = network();
  for (std::size_t k = first; k < out.size(); ++k) out[k].fraction /= net.capacity(out[k].channel);
}

std::unique_ptr<RoutingModel> make_routing_model(const Network& network, const RoutingSpec& stated) {
  const RoutingSpec spec = stated.on(network);
  std::unique_ptr<RoutingModel> model;
  if (const Grid* grid = network.grid_if()) model = make_grid_routing_model(*grid, spec);
  else model = detail::make_network_routing_model(network, spec.kind);
  if (!model)
    throw InputError("routing '" + spec.to_string() + "' does not apply to " + network.to_string() + ", which takes " +
                     routing_choices(network));
  return model;
}

std::unique_ptr<RoutingModel> make_routing_model(const Network& network, std::string_view spec) {
  return make_routing_model(network, RoutingSpec::parse(spec));
}

std::unique_ptr<RoutingModel> make_routing_model(const Grid& grid, const RoutingSpec& spec) {
  return make_routing_model(Network(grid), spec);
}

std::unique_ptr<RoutingModel> make_routing_model(const Grid& grid, std::string_view spec) {
  return make_routing_model(Network(grid), RoutingSpec::parse(spec));
}

std::shared_ptr<const RoutingModel> shared_routing_model(const Network& network, const RoutingSpec& spec) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const RoutingModel>> models;
  const std::string key = network.to_string() + '\n' + spec.on(network).to_string();
  const std::lock_guard lock(mutex);
  if (const auto it = models.find(key); it != models.end())
    if (std::shared_ptr<const RoutingModel> model = it->second.lock()) return model;
  std::shared_ptr<const RoutingModel> model = make_routing_model(network, spec);
  std::erase_if(models, [](const auto& entry) { return entry.second.expired(); });
  models[key] = model;
  return model;
}

}  // namespace rankmap::topology
