// Routes as channel names, so that the network tests can compare them with routes worked out by hand.
#pragma once

#include <rankmap/topology/network.hpp>
#include <rankmap/topology/routing.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::topology::testing {

/// The route of a unit flow as channel names with their shares.
inline std::map<std::string, double> route_of(const Network& n, std::string_view routing, NodeId src, NodeId dst) {
  std::vector<ChannelShare> shares;
  make_routing_model(n, routing)->route(src, dst, shares);
  std::map<std::string, double> out;
  for (const ChannelShare& s : shares) out[n.channel_name(s.channel)] += s.fraction;
  return out;
}

/// A single-path route as the ordered channel names, and whether every share was whole.
struct Path {
  std::vector<std::string> channels;
  bool whole = true;
};

inline Path path_of(const Network& n, std::string_view routing, NodeId src, NodeId dst) {
  std::vector<ChannelShare> shares;
  make_routing_model(n, routing)->route(src, dst, shares);
  Path path;
  for (const ChannelShare& s : shares) {
    path.whole = path.whole && s.fraction == 1.0;
    path.channels.push_back(n.channel_name(s.channel));
  }
  return path;
}

}  // namespace rankmap::topology::testing
