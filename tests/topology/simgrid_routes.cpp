// Checks rankmap's fat-tree and dragonfly models against SimGrid's own routes: for every pair of
// hosts of a FAT_TREE or DRAGONFLY cluster, the links SimGrid routes over must be exactly, and in
// order, the channels of rankmap's dmodk or minimal route. Run as `simgrid_routes SPEC`, one
// platform per process (SimGrid loads one platform per process); SPEC uses '/' for ';'.
#include <rankmap/topology/dragonfly.hpp>
#include <rankmap/topology/fat_tree.hpp>
#include <rankmap/topology/routing.hpp>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using rankmap::topology::Dragonfly;
using rankmap::topology::FatTree;
using rankmap::topology::Network;

std::string platform_xml(const Network& network, const std::string& parameters) {
  const bool tree = network.fat_tree() != nullptr;
  return std::string("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n") +
         "<platform version=\"4.1\">\n  <cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-" +
         std::to_string(network.num_nodes() - 1) + "\" speed=\"1Gf\" bw=\"1GBps\" lat=\"0\" " +
         "sharing_policy=\"SPLITDUPLEX\" topology=\"" + (tree ? "FAT_TREE" : "DRAGONFLY") + "\" topo_parameters=\"" +
         parameters + "\"/>\n</platform>\n";
}

long long number(const std::string& text) { return std::stoll(text); }

/// SimGrid's name of every link -> rankmap's channel_name() of the same directed channel.
std::map<std::string, std::string> fat_tree_names(const std::vector<simgrid::s4u::Link*>& links) {
  // link_from_<child>_<parent>_<uid>_UP|DOWN; the copies of one child-parent pair in uid order.
  const std::regex re("link_from_(-?\\d+)_(-?\\d+)_(\\d+)_(UP|DOWN)");
  std::map<std::pair<long long, long long>, std::vector<long long>> uids;
  std::vector<std::tuple<std::string, long long, long long, long long, bool>> parsed;
  for (const auto* link : links) {
    std::smatch m;
    const std::string name = link->get_name();
    if (!std::regex_match(name, m, re)) continue;
    parsed.emplace_back(name, number(m[1]), number(m[2]), number(m[3]), m[4] == "UP");
    if (m[4] == "UP") uids[{number(m[1]), number(m[2])}].push_back(number(m[3]));
  }
  std::map<std::string, std::string> out;
  for (auto& [name, child, parent, uid, up] : parsed) {
    auto& list = uids[{child, parent}];
    std::sort(list.begin(), list.end());
    const auto copy = std::find(list.begin(), list.end(), uid) - list.begin();
    const std::string c = std::to_string(child), p = std::to_string(parent), k = " #" + std::to_string(copy);
    out[name] = up ? "up " + c + "->" + p + k : "down " + p + "->" + c + k;
  }
  return out;
}

std::map<std::string, std::string> dragonfly_names(const Dragonfly& df, const std::vector<simgrid::s4u::Link*>& links) {
  const int R = df.params().routers, C = df.params().chassis, N = df.params().nodes;
  const std::regex local("local_link_from_router_(\\d+)_to_node_(\\d+)_(\\d+)_(UP|DOWN)");
  const std::regex green("green_link_in_chassis_(\\d+)_between_routers_(\\d+)_and_(\\d+)_(\\d+)_(UP|DOWN)");
  const std::regex black("black_link_in_group_(\\d+)_between_chassis_(\\d+)_and_(\\d+)_blade_(\\d+)_(\\d+)_(UP|DOWN)");
  const std::regex blue("blue_link_between_group_(\\d+)_and_(\\d+)_routers_(\\d+)_and_(\\d+)_(\\d+)_(UP|DOWN)");
  const auto r = [](long long i) { return "router " + std::to_string(i); };
  const auto pair = [&](const char* kind, long long a, long long b, bool up) {
    return std::string(kind) + " " + (up ? r(a) + "->" + r(b) : r(b) + "->" + r(a));
  };
  // A green link's name gives the chassis within the group but not the group: the links come in
  // creation order, R(R-1)/2 per chassis of the whole machine, group by group.
  std::vector<long long> green_uids;
  for (const auto* link : links) {
    std::smatch m;
    const std::string name = link->get_name();
    if (std::regex_match(name, m, green) && m[5] == "UP") green_uids.push_back(number(m[4]));
  }
  std::sort(green_uids.begin(), green_uids.end());
  std::map<std::string, std::string> out;
  for (const auto* link : links) {
    std::smatch m;
    const std::string name = link->get_name();
    if (std::regex_match(name, m, local)) {
      const std::string node = "node " + std::to_string(number(m[1]) * N + number(m[2]));
      out[name] = "local " + (m[4] == "UP" ? node + "->" + r(number(m[1])) : r(number(m[1])) + "->" + node);
    } else if (std::regex_match(name, m, green)) {
      const long long index = std::lower_bound(green_uids.begin(), green_uids.end(), number(m[4])) - green_uids.begin();
      const long long chassis = R > 1 ? index / (static_cast<long long>(R) * (R - 1) / 2) : 0;
      if (chassis % C != number(m[1])) out[name] = "green link of an unexpected chassis";
      else out[name] = pair("green", chassis * R + number(m[2]), chassis * R + number(m[3]), m[5] == "UP");
    } else if (std::regex_match(name, m, black)) {
      const long long g = number(m[1]), blade = number(m[4]);
      out[name] = pair("black", (g * C + number(m[2])) * R + blade, (g * C + number(m[3])) * R + blade, m[6] == "UP");
    } else if (std::regex_match(name, m, blue)) {
      out[name] = pair("blue", number(m[3]), number(m[4]), m[6] == "UP");
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: simgrid_routes SPEC (with '/' for ';', e.g. fattree:2/4,4/1,2/1,2)\n");
    return 2;
  }
  std::string spec = argv[1];
  std::replace(spec.begin(), spec.end(), '/', ';');
  const Network network = Network::parse(spec);
  const std::string parameters = spec.substr(spec.find(':') + 1);
  char path[] = "/tmp/rankmap_simgrid_routes_XXXXXX.xml";
  const int fd = mkstemps(path, 4);
  if (fd < 0) return 2;
  close(fd);
  std::ofstream(path) << platform_xml(network, parameters);

  int sg_argc = 1;
  char* sg_argv[] = {argv[0], nullptr};
  simgrid::s4u::Engine engine(&sg_argc, sg_argv);
  engine.load_platform(path);
  std::remove(path);

  const auto links = engine.get_all_links();
  const std::map<std::string, std::string> name_of =
      network.fat_tree() ? fat_tree_names(links) : dragonfly_names(*network.dragonfly(), links);
  const auto model = rankmap::topology::make_routing_model(network, network.fat_tree() ? "dmodk" : "minimal");
  long long pairs = 0, channels = 0, errors = 0;
  std::vector<simgrid::s4u::Link*> route;
  std::vector<rankmap::topology::ChannelShare> shares;
  for (rankmap::NodeId a = 0; a < network.num_nodes(); ++a) {
    const auto* from = engine.host_by_name("n" + std::to_string(a));
    for (rankmap::NodeId b = 0; b < network.num_nodes(); ++b) {
      if (a == b) continue;
      route.clear();
      from->route_to(engine.host_by_name("n" + std::to_string(b)), route, nullptr);
      shares.clear();
      model->route(a, b, shares);
      std::vector<std::string> theirs, ours;
      for (const auto* link : route) {
        const auto it = name_of.find(link->get_name());
        theirs.push_back(it == name_of.end() ? "unknown link " + link->get_name() : it->second);
      }
      for (const auto& s : shares) ours.push_back(network.channel_name(s.channel));
      ++pairs;
      channels += static_cast<long long>(ours.size());
      if (theirs != ours && errors++ < 10) {
        std::fprintf(stderr, "n%lld -> n%lld:\n  SimGrid:", static_cast<long long>(a), static_cast<long long>(b));
        for (const auto& t : theirs) std::fprintf(stderr, " [%s]", t.c_str());
        std::fprintf(stderr, "\n  rankmap:");
        for (const auto& o : ours) std::fprintf(stderr, " [%s]", o.c_str());
        std::fprintf(stderr, "\n");
      }
    }
  }
  std::printf("simgrid_routes %s: %lld host pairs, %lld channels, %lld routes differ\n", spec.c_str(), pairs, channels,
              errors);
  return errors == 0 && pairs > 0 ? 0 : 1;
}
