// Reading Slurm's tree topology (topology.conf, `scontrol show topology`) and building its fat-tree.
#include <rankmap/topology/slurm_topology.hpp>

#include <rankmap/topology/fat_tree.hpp>
#include <rankmap/topology/hostlist.hpp>

#include "io/file_streams.hpp"
#include "io/text_reader.hpp"

#include <unordered_map>
#include <unordered_set>

namespace rankmap::topology {

namespace {

/// One value of a line: which key it belongs to, so that repeats are caught.
enum Key { switch_name, switches, nodes, link_speed, level, num_keys };
constexpr const char* kKeyNames[num_keys] = {"SwitchName", "Switches", "Nodes", "LinkSpeed", "Level"};

void parse_line(io::TextReader& reader, std::string_view line, SlurmTopology& topology, std::size_t& names) {
  SlurmSwitch sw;
  sw.line = static_cast<int>(reader.line_number());
  bool seen[num_keys] = {};
  io::Fields fields(line);
  while (const auto word = fields.next()) {
    const std::size_t eq = word->find('=');
    const std::string_view key_text = word->substr(0, eq);
    int key = num_keys;
    for (int k = 0; k < num_keys; ++k)
      if (io::equals_ignoring_case(key_text, kKeyNames[k])) key = k;
    if (eq == std::string_view::npos || key == num_keys)
      reader.fail("unknown word " + io::quoted(*word) +
                  "; expected SwitchName=, Switches=, Nodes=, LinkSpeed= or Level= (topology/tree)");
    if (seen[key]) reader.fail(std::string(kKeyNames[key]) + "= appears twice");
    seen[key] = true;
    const std::string_view value = word->substr(eq + 1);
    if (value.empty()) reader.fail(std::string(kKeyNames[key]) + "= has no value");
    const std::string what = reader.source() + ":" + std::to_string(reader.line_number()) + ": " + kKeyNames[key] + "=";
    switch (key) {
      case switch_name:
        if (value.find_first_of("[],") != std::string_view::npos)
          reader.fail("SwitchName=" + io::quoted(value) + " must name one switch");
        sw.name = std::string(value);
        break;
      case switches: sw.switches = expand_hostlist(value, what); break;
      case nodes: sw.nodes = expand_hostlist(value, what); break;
      default: {
        const auto v = io::parse_int(value);
        if (!v || *v < 0 || value.front() == '+' || value.front() == '-')
          reader.fail(std::string(kKeyNames[key]) + "=" + io::quoted(value) + " must be a non-negative integer");
      }
    }
  }
  if (!seen[switch_name]) reader.fail("a line without SwitchName=");
  if (seen[switches] == seen[nodes])
    reader.fail("switch '" + sw.name + "' needs either Nodes= or Switches=, not " + (seen[nodes] ? "both" : "neither") +
                " (rankmap's tree keeps nodes on the leaf switches only)");
  names += sw.switches.size() + sw.nodes.size();
  if (names > kMaxHostlistNames) reader.fail("more than " + std::to_string(kMaxHostlistNames) + " names in all");
  topology.switches.push_back(std::move(sw));
}

[[noreturn]] void fail_at(std::string_view source, int line, const std::string& why) {
  throw InputError(std::string(source) + ":" + std::to_string(line) + ": " + why);
}

}  // namespace

SlurmTopology parse_slurm_topology(std::istream& in, std::string_view source) {
  io::TextReader reader(in, source);
  SlurmTopology topology;
  std::size_t names = 0;
  std::string_view line;
  while (reader.next_line(line)) {
    line = io::strip_comment(line, '#');
    if (!io::is_blank(line)) parse_line(reader, line, topology, names);
  }
  if (topology.switches.empty()) reader.fail_file("no SwitchName= line");
  return topology;
}

SlurmTopology read_slurm_topology(const std::string& path) {
  std::ifstream in = io::open_input(path);
  return parse_slurm_topology(in, path);
}

SlurmTree slurm_tree(const SlurmTopology& topology, std::string_view source) {
  const auto& sw = topology.switches;
  const int n = static_cast<int>(sw.size());
  std::unordered_map<std::string_view, int> index_of;
  for (int i = 0; i < n; ++i)
    if (!index_of.emplace(sw[i].name, i).second)
      fail_at(source, sw[i].line, "switch '" + sw[i].name + "' is defined again (first on line " +
                                      std::to_string(sw[index_of[sw[i].name]].line) + ")");
  std::vector<int> parent(n, -1), child_index(n, 0);
  for (int i = 0; i < n; ++i)
    for (std::size_t k = 0; k < sw[i].switches.size(); ++k) {
      const auto it = index_of.find(sw[i].switches[k]);
      if (it == index_of.end())
        fail_at(source, sw[i].line, "switch '" + sw[i].switches[k] + "' in Switches= is defined on no line");
      if (parent[it->second] != -1)
        fail_at(source, sw[i].line, "switch '" + sw[i].switches[k] + "' already has a parent, '" +
                                        sw[parent[it->second]].name + "' (a tree gives each switch one)");
      parent[it->second] = i;
      child_index[it->second] = static_cast<int>(k);
    }

  // Depths from the roots, breadth first (no recursion: a bad file may be a long chain).
  std::vector<int> roots, depth(n, -1), order;
  for (int i = 0; i < n; ++i)
    if (parent[i] == -1) {
      child_index[i] = static_cast<int>(roots.size());
      roots.push_back(i);
      depth[i] = 0;
      order.push_back(i);
    }
  for (std::size_t q = 0; q < order.size(); ++q) {
    const int s = order[q];
    if (depth[s] >= FatTree::kMaxLevels)
      fail_at(source, sw[s].line, "the tree is deeper than " + std::to_string(FatTree::kMaxLevels) + " levels of switches");
    for (const std::string& c : sw[s].switches) {
      const int ci = index_of.at(c);
      depth[ci] = depth[s] + 1;
      order.push_back(ci);
    }
  }
  for (int i = 0; i < n; ++i)
    if (depth[i] == -1) fail_at(source, sw[i].line, "switch '" + sw[i].name + "' lies on a cycle of Switches=");
  int leaf_depth = -1;
  for (int i = 0; i < n; ++i) {
    if (sw[i].nodes.empty()) continue;
    if (leaf_depth == -1) leaf_depth = depth[i];
    if (depth[i] != leaf_depth)
      fail_at(source, sw[i].line, "leaf switch '" + sw[i].name + "' lies " + std::to_string(depth[i]) +
                                      " levels below the top, others " + std::to_string(leaf_depth) +
                                      " (a fat-tree keeps every node at one level)");
  }
  const bool joined = roots.size() > 1;
  const int levels = leaf_depth + 1 + (joined ? 1 : 0);
  if (levels > FatTree::kMaxLevels)
    throw InputError(std::string(source) + ": the tree has more than " + std::to_string(FatTree::kMaxLevels) + " levels");

  // Level l (1 = leaf switches) holds the switches at depth leaf_depth + 1 - l.
  std::vector<int> down(static_cast<std::size_t>(levels), 1);
  for (int i = 0; i < n; ++i) {
    const int l = leaf_depth + 1 - depth[i];
    const auto fan_out = static_cast<int>(l == 1 ? sw[i].nodes.size() : sw[i].switches.size());
    down[static_cast<std::size_t>(l - 1)] = std::max(down[static_cast<std::size_t>(l - 1)], fan_out);
  }
  if (joined) down.back() = static_cast<int>(roots.size());

  SlurmTree tree;
  try {
    tree.network = FatTree(down, std::vector<int>(down.size(), 1), std::vector<int>(down.size(), 1));
  } catch (const InputError& e) {
    throw InputError(std::string(source) + ": " + e.what());
  }
  std::unordered_set<std::string_view> seen_nodes;
  for (int i = 0; i < n; ++i) {
    if (sw[i].nodes.empty()) continue;
    // The leaf's place: its index under each ancestor, the leaf level slowest of the node's digits.
    NodeId base = 0, weight = down[0];
    for (int s = i, l = 1; l < levels; ++l) {
      base += child_index[s] * weight;
      weight *= down[static_cast<std::size_t>(l)];
      s = parent[s] == -1 ? s : parent[s];
    }
    for (std::size_t k = 0; k < sw[i].nodes.size(); ++k) {
      if (!seen_nodes.insert(sw[i].nodes[k]).second)
        fail_at(source, sw[i].line, "node '" + sw[i].nodes[k] + "' is under two leaf switches");
      tree.hosts.push_back(sw[i].nodes[k]);
      tree.nodes.push_back(base + static_cast<NodeId>(k));
    }
  }
  return tree;
}

}  // namespace rankmap::topology
