// SimGrid's dragonfly: routers, channels with their capacities, and hop distances.
#include <rankmap/topology/dragonfly.hpp>

#include "spec_numbers.hpp"

namespace rankmap::topology {

namespace {

constexpr std::int64_t kMaxCount = std::int64_t{1} << 20;

}  // namespace

Dragonfly::Dragonfly(Params params) : p_(params) {
  for (int v : {p_.groups, p_.blue_links, p_.chassis, p_.black_links, p_.routers, p_.green_links, p_.nodes})
    if (v < 1 || v > kMaxCount)
      throw InputError("dragonfly: every count must be 1 to " + std::to_string(kMaxCount) + ", not " + std::to_string(v));
  if (p_.groups > p_.routers)
    throw InputError("dragonfly: " + std::to_string(p_.groups) + " groups need at least as many routers per chassis (" +
                     std::to_string(p_.routers) + "): SimGrid links group j to router j of chassis 0 of every other group");
  const char* too_many = "dragonfly: too many routers";
  const std::int64_t routers = detail::checked_product(
      detail::checked_product(p_.groups, p_.chassis, INT32_MAX, too_many), p_.routers, INT32_MAX, too_many);
  num_routers_ = static_cast<int>(routers);
  num_nodes_ = detail::checked_product(routers, p_.nodes, INT32_MAX, "dragonfly: 2^31 nodes or more");
  green_base_ = 2 * num_nodes_;
  black_base_ = green_base_ + routers * p_.routers;
  blue_base_ = black_base_ + routers * p_.chassis;
  if (num_channel_slots() > kMaxNetworkChannels)
    throw InputError("dragonfly: more than " + std::to_string(kMaxNetworkChannels) + " channels");
}

Dragonfly Dragonfly::parse(std::string_view spec) {
  const std::string where = "dragonfly:" + std::string(spec);
  const std::vector<std::string_view> parts = detail::split(spec, ';');
  if (parts.size() != 4)
    throw InputError("topology '" + where + "': expected dragonfly:G,g;C,c;R,r;N (4 parts separated by ';')");
  const char* levels[] = {"groups and their links", "chassis and their links", "routers and their links"};
  int values[6];
  for (int k = 0; k < 3; ++k) {
    const std::vector<std::string_view> pair = detail::split(parts[k], ',');
    if (pair.size() != 2)
      throw InputError("topology '" + where + "': part " + std::to_string(k + 1) + " gives the " + levels[k] +
                       " as two numbers 'count,links', not '" + std::string(parts[k]) + "'");
    values[2 * k] = detail::spec_count(pair[0], where, levels[k]);
    values[2 * k + 1] = detail::spec_count(pair[1], where, levels[k]);
  }
  Params p{values[0], values[1], values[2], values[3], values[4], values[5],
           detail::spec_count(parts[3], where, "nodes per router")};
  try {
    return Dragonfly(p);
  } catch (const InputError& e) {
    throw InputError("topology '" + where + "': " + e.what());
  }
}

std::string Dragonfly::to_string() const {
  const auto pair = [](int a, int b) { return std::to_string(a) + "," + std::to_string(b); };
  return "dragonfly:" + pair(p_.groups, p_.blue_links) + ";" + pair(p_.chassis, p_.black_links) + ";" +
         pair(p_.routers, p_.green_links) + ";" + std::to_string(p_.nodes);
}

int Dragonfly::router_hops(int a, int b) const {
  if (a == b) return 0;
  const Router x = router(a), y = router(b);
  if (x.group == y.group) return (x.chassis != y.chassis) + (x.blade != y.blade);
  // To router (chassis 0, blade y.group) of x's group, the global link, then from router
  // (chassis 0, blade x.group) of y's group. A detour through a third group is never shorter.
  return (x.blade != y.group) + (x.chassis != 0) + 1 + (y.blade != x.group) + (y.chassis != 0);
}

int Dragonfly::hops(NodeId a, NodeId b) const { return a == b ? 0 : 2 + router_hops(router_of(a), router_of(b)); }

int Dragonfly::diameter() const {
  if (num_nodes_ == 1) return 0;
  const int chassis_hop = p_.chassis > 1 ? 1 : 0;
  if (p_.groups > 1) return 2 + 2 * (1 + chassis_hop) + 1;  // groups > 1 implies routers > 1
  if (num_routers_ == 1) return 2;
  return 2 + chassis_hop + (p_.routers > 1 ? 1 : 0);
}

int Dragonfly::min_hops() const {
  if (num_nodes_ == 1) return 0;
  return p_.nodes > 1 ? 2 : 3;
}

bool Dragonfly::has_channel(ChannelId c) const {
  if (c < 0 || c >= num_channel_slots()) return false;
  if (c < green_base_) return true;
  if (c < black_base_) return (c - green_base_) % p_.routers != router(static_cast<int>((c - green_base_) / p_.routers)).blade;
  if (c < blue_base_)
    return (c - black_base_) % p_.chassis != router(static_cast<int>((c - black_base_) / p_.chassis)).chassis;
  const Router r = router(static_cast<int>(c - blue_base_));
  return r.chassis == 0 && r.blade < p_.groups && r.blade != r.group;
}

double Dragonfly::capacity(ChannelId c) const {
  if (c < green_base_) return 1.0;
  if (c < black_base_) return p_.green_links;
  if (c < blue_base_) return p_.black_links;
  return p_.blue_links;
}

ChannelId Dragonfly::num_channels() const {
  return 2 * num_nodes_ + ChannelId{num_routers_} * (p_.routers - 1) + ChannelId{num_routers_} * (p_.chassis - 1) +
         ChannelId{p_.groups} * (p_.groups - 1);
}

double Dragonfly::total_capacity() const {
  return 2.0 * static_cast<double>(num_nodes_) + static_cast<double>(num_routers_) * (p_.routers - 1) * p_.green_links +
         static_cast<double>(num_routers_) * (p_.chassis - 1) * p_.black_links +
         static_cast<double>(p_.groups) * (p_.groups - 1) * p_.blue_links;
}

std::string Dragonfly::channel_name(ChannelId c) const {
  const auto r = [](long long index) { return "router " + std::to_string(index); };
  if (c < green_base_) {
    const std::string node = "node " + std::to_string(c / 2);
    const std::string at = r(router_of(c / 2));
    return "local " + (c % 2 == 0 ? node + "->" + at : at + "->" + node);
  }
  if (c < black_base_) {
    const int from = static_cast<int>((c - green_base_) / p_.routers);
    const Router x = router(from);
    return "green " + r(from) + "->" + r(router_index(x.group, x.chassis, static_cast<int>((c - green_base_) % p_.routers)));
  }
  if (c < blue_base_) {
    const int from = static_cast<int>((c - black_base_) / p_.chassis);
    const Router x = router(from);
    return "black " + r(from) + "->" + r(router_index(x.group, static_cast<int>((c - black_base_) % p_.chassis), x.blade));
  }
  const int from = static_cast<int>(c - blue_base_);
  const Router x = router(from);
  return "blue " + r(from) + "->" + r(router_index(x.blade, 0, x.group));
}

// hops = 2 + router_hops, and router_hops between groups is a sum of terms that each depend on one
// end only, so every sum below comes from counts per router, group, (group, blade) and (group, chassis).
std::vector<double> Dragonfly::hops_to_all(std::span<const NodeId> nodes) const {
  const int G = p_.groups, C = p_.chassis, R = p_.routers;
  std::vector<double> per_router(static_cast<std::size_t>(num_routers_), 0.0), per_group(G, 0.0);
  std::vector<double> per_blade(static_cast<std::size_t>(G) * R, 0.0), per_chassis(static_cast<std::size_t>(G) * C, 0.0);
  std::vector<double> on_blade(R, 0.0);  // all groups
  double total_count = 0, off_chassis0 = 0;
  for (NodeId n : nodes) {
    const Router r = router(router_of(n));
    per_router[router_of(n)] += 1;
    per_group[r.group] += 1;
    per_blade[static_cast<std::size_t>(r.group) * R + r.blade] += 1;
    per_chassis[static_cast<std::size_t>(r.group) * C + r.chassis] += 1;
    on_blade[r.blade] += 1;
    total_count += 1;
    off_chassis0 += r.chassis != 0;
  }
  std::vector<double> total(nodes.size(), 0.0);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const int rx = router_of(nodes[i]);
    const Router x = router(rx);
    const double same_router = per_router[rx];
    // Same router: 2 hops to every other node there.
    double sum = 2 * (same_router - 1);
    // Same group, other routers: 2 + [chassis differs] + [blade differs].
    const double group_rest = per_group[x.group] - same_router;
    const double same_chassis = per_chassis[static_cast<std::size_t>(x.group) * C + x.chassis] - same_router;
    const double same_blade = per_blade[static_cast<std::size_t>(x.group) * R + x.blade] - same_router;
    sum += 2 * group_rest + (group_rest - same_chassis) + (group_rest - same_blade);
    // Other groups h: 3 + [x.blade != h] + [x.chassis != 0] + [y.blade != x.group] + [y.chassis != 0].
    const double others = total_count - per_group[x.group];
    const double toward_x_blade = x.blade != x.group && x.blade < G ? per_group[x.blade] : 0;
    const double blade_is_x_group = on_blade[x.group] - per_blade[static_cast<std::size_t>(x.group) * R + x.group];
    const double off0 = off_chassis0 - (per_group[x.group] - per_chassis[static_cast<std::size_t>(x.group) * C]);
    sum += 3 * others + (others - toward_x_blade) + (x.chassis != 0 ? others : 0) + (others - blade_is_x_group) + off0;
    total[i] = sum;
  }
  return total;
}

NodeId Dragonfly::level_size(int level) const {
  switch (level) {
    case 0: return 1;
    case 1: return p_.nodes;
    case 2: return NodeId{p_.nodes} * p_.routers;
    case 3: return NodeId{p_.nodes} * p_.routers * p_.chassis;
    default: return num_nodes_;
  }
}

std::pair<NodeId, int> Dragonfly::channel_home(ChannelId c) const {
  if (c < green_base_) return {c / 2, 0};
  const ChannelId from = c < black_base_ ? (c - green_base_) / p_.routers
                         : c < blue_base_ ? (c - black_base_) / p_.chassis
                                          : c - blue_base_;
  const NodeId group_size = level_size(3);
  return {router(static_cast<int>(from)).group * group_size, 3};
}

}  // namespace rankmap::topology
