// libFuzzer target: the network spec parsers (`fattree:`, `dragonfly:`, and the grid specs through
// Network::parse) and the routing spec parser. Bad input must be an InputError, never a crash or a
// hang. A spec that parses must write back to itself, and on a small network the hop distances,
// node groups and routes of every routing model it takes must agree with each other, and flows to
// one node must load the channels the same whether added together or one by one.
//
// Input: the network spec on the first line, optionally a routing spec on the second.
#include <rankmap/topology/network.hpp>
#include <rankmap/topology/routing.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace rankmap;
using namespace rankmap::topology;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

/// Node groups: level 0 is one node, the top level the whole network, each level a multiple of the one below.
void check_levels(const Network& net) {
  check(net.num_levels() >= 1 && net.level_size(0) == 1 && net.level_size(net.num_levels()) == net.num_nodes());
  for (int l = 1; l <= net.num_levels(); ++l) check(net.level_size(l) % net.level_size(l - 1) == 0);
}

/// A few node pairs spread over the network, the same for a given network.
std::vector<std::pair<NodeId, NodeId>> sample_pairs(NodeId n) {
  std::vector<std::pair<NodeId, NodeId>> pairs;
  for (NodeId k = 1; k <= 7; ++k) pairs.emplace_back((k * 7919) % n, (k * 104729 + n / 2) % n);
  pairs.emplace_back(0, n - 1);
  return pairs;
}

void check_hops(const Network& net, const std::vector<std::pair<NodeId, NodeId>>& pairs) {
  for (const auto& [a, b] : pairs) {
    const int h = net.hops(a, b);
    check(h == net.hops(b, a) && h <= net.diameter());
    check(a == b ? h == 0 : h >= net.min_hops());
  }
  std::vector<NodeId> nodes;
  for (NodeId x = 0; x < net.num_nodes() && nodes.size() < 64; x += 1 + x % 5) nodes.push_back(x);
  const std::vector<double> fast = net.hops_to_all(nodes);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    double sum = 0;
    for (NodeId y : nodes) sum += net.hops(nodes[i], y);
    check(fast[i] == sum);
  }
}

/// Every channel of a route exists; the shares add up to the hop count on a shortest-path routing,
/// to more on Valiant's detours, and to min_hops()..hops+1 on SimGrid's dragonfly `minimal`, which
/// within a group skips a black hop or takes one too many as SimGrid does (docs/networks.md). Every channel of a route
/// but Valiant's has an end of the route in its home group.
void check_routes(const Network& net, const RoutingModel& model, const std::vector<std::pair<NodeId, NodeId>>& pairs) {
  const bool minimal = model.name() != "valiant";
  const bool simgrid_short_cut = net.kind() == NetworkKind::dragonfly && model.name() == "minimal";
  std::vector<ChannelShare> shares;
  for (const auto& [a, b] : pairs) {
    shares.clear();
    model.route(a, b, shares);
    double total = 0;
    for (const ChannelShare& s : shares) {
      check(s.channel >= 0 && s.channel < net.num_channel_slots() && net.has_channel(s.channel));
      check(s.fraction > 0 && s.fraction <= 1 + 1e-9);
      total += s.fraction;
      (void)net.channel_name(s.channel);
      if (minimal && !net.is_grid()) {
        const std::pair<NodeId, int> home = net.channel_home(s.channel);
        const NodeId end = home.first + net.level_size(home.second);
        check((a >= home.first && a < end) || (b >= home.first && b < end));
      }
    }
    const int h = net.hops(a, b);
    const double eps = 1e-6 * (1 + h);
    if (!minimal) check(total >= h - eps);
    else if (simgrid_short_cut) check(a == b ? total == 0 : total >= net.min_hops() - eps && total <= h + 1 + eps);
    else check(std::abs(total - h) <= eps);
  }
}

/// Flows from up to 256 nodes to one load the channels together (add_flows_to, which adaptive
/// routing walks by destination when they overlap enough) as they do one by one, up to rounding.
void check_flows_to_one_node(const Network& net, const RoutingModel& model) {
  const NodeId dst = net.num_nodes() / 3;
  const NodeId step = std::max<NodeId>(1, net.num_nodes() / 256);
  std::vector<SourceBytes> sources;
  for (NodeId src = 0; src < net.num_nodes(); src += step)
    if (src != dst) sources.push_back({src, 1.0 + static_cast<double>(src % 7)});
  std::vector<double> together(net.num_channel_slots(), 0.0), one_by_one(net.num_channel_slots(), 0.0);
  model.add_flows_to(dst, sources, together);
  for (const SourceBytes& flow : sources) model.add_flow(flow.src, dst, flow.bytes, one_by_one);
  for (std::size_t c = 0; c < together.size(); ++c)
    check(std::abs(together[c] - one_by_one[c]) <= 1e-9 * (1 + std::abs(one_by_one[c])));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const std::string_view spec = input.substr(0, newline);
  const std::string_view routing = newline == std::string_view::npos ? std::string_view{} : input.substr(newline + 1);
  Network net;
  try {
    net = Network::parse(spec);
  } catch (const InputError&) {
    return 0;
  }
  check(Network::parse(net.to_string()) == net);
  // Route checks only on networks small enough to keep an execution fast.
  if (net.num_nodes() < 1 || net.num_nodes() > 4096 || net.num_channel_slots() > (1 << 20)) return 0;
  check_levels(net);
  const auto pairs = sample_pairs(net.num_nodes());
  check_hops(net, pairs);
  for (const std::string& name : net.routing_names()) {
    const auto model = make_routing_model(net, name);
    check_routes(net, *model, pairs);
    check_flows_to_one_node(net, *model);
  }
  if (!routing.empty()) {
    try {
      const RoutingSpec r = RoutingSpec::parse(routing);
      check(RoutingSpec::parse(r.to_string()).to_string() == r.to_string());
      const auto model = make_routing_model(net, r);
      check_routes(net, *model, pairs);
      check_flows_to_one_node(net, *model);
    } catch (const InputError&) {
    }
  }
  return 0;
}
