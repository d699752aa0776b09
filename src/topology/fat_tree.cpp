// SimGrid's fat-tree: labels, ports, SimGrid ids, channels and hop distances.
#include <rankmap/topology/fat_tree.hpp>

#include "spec_numbers.hpp"

#include <algorithm>
#include <unordered_map>

namespace rankmap::topology {

namespace {

constexpr int kMaxPorts = 1 << 16;
constexpr NodeId kMaxElements = NodeId{1} << 40;

}  // namespace

FatTree::FatTree(std::vector<int> down, std::vector<int> up, std::vector<int> parallel)
    : down_(std::move(down)), up_(std::move(up)), parallel_(std::move(parallel)) {
  levels_ = static_cast<int>(down_.size());
  if (levels_ < 1 || levels_ > kMaxLevels)
    throw InputError("fat-tree: needs 1 to " + std::to_string(kMaxLevels) + " levels, not " + std::to_string(levels_));
  if (up_.size() != down_.size() || parallel_.size() != down_.size())
    throw InputError("fat-tree: the down, up and parallel counts need one value per level (" +
                     std::to_string(levels_) + ")");
  for (const auto* counts : {&down_, &up_, &parallel_})
    for (int v : *counts)
      if (v < 1 || v > kMaxPorts)
        throw InputError("fat-tree: every count must be 1 to " + std::to_string(kMaxPorts) + ", not " +
                         std::to_string(v));
  for (int level = 0; level <= levels_; ++level) {
    NodeId stride = 1;
    for (int j = 0; j < levels_; ++j) {
      radix_[level][j] = j < level ? up_[j] : down_[j];
      stride_[level][j] = stride;
      stride = detail::checked_product(stride, radix_[level][j], kMaxElements, "fat-tree: too many switches");
    }
    stride_[level][levels_] = stride;
    count_[level] = stride;
  }
  if (count_[0] >= (NodeId{1} << 31)) throw InputError("fat-tree: 2^31 nodes or more");
  ChannelId links = 0;
  for (int level = 0; level < levels_; ++level) {
    link_offset_[level] = links;
    links += detail::checked_product(count_[level], up_ports(level), kMaxNetworkChannels, "fat-tree: too many links");
    if (2 * links > kMaxNetworkChannels)
      throw InputError("fat-tree: more than " + std::to_string(kMaxNetworkChannels) + " channels");
  }
  link_offset_[levels_] = links;
}

FatTree FatTree::parse(std::string_view spec) {
  const std::string where = "fattree:" + std::string(spec);
  const std::vector<std::string_view> parts = detail::split(spec, ';');
  if (parts.size() != 4)
    throw InputError("topology '" + where + "': expected fattree:L;d1,...,dL;u1,...,uL;p1,...,pL (4 parts separated by ';')");
  const int levels = detail::spec_count(parts[0], where, "the number of levels");
  const char* names[] = {"down-port counts", "up-port counts", "parallel-link counts"};
  std::vector<int> counts[3];
  for (int k = 0; k < 3; ++k) {
    for (std::string_view v : detail::split(parts[1 + k], ',')) counts[k].push_back(detail::spec_count(v, where, names[k]));
    if (static_cast<int>(counts[k].size()) != levels)
      throw InputError("topology '" + where + "': " + std::to_string(levels) + " levels but " +
                       std::to_string(counts[k].size()) + " " + names[k]);
  }
  try {
    return FatTree(std::move(counts[0]), std::move(counts[1]), std::move(counts[2]));
  } catch (const InputError& e) {
    throw InputError("topology '" + where + "': " + e.what());
  }
}

std::string FatTree::to_string() const {
  const auto join = [](const std::vector<int>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s;
  };
  return "fattree:" + std::to_string(levels_) + ";" + join(down_) + ";" + join(up_) + ";" + join(parallel_);
}

NodeId FatTree::parent(int level, NodeId position, int q) const {
  const NodeId s = stride_[level][level];
  const NodeId high = position / (s * down_[level]);
  return position % s + (q % up_[level]) * s + high * s * up_[level];
}

NodeId FatTree::child(int level, NodeId position, int i) const {
  const NodeId s = stride_[level][level - 1];
  const NodeId high = position / (s * up_[level - 1]);
  return position % s + (i % down_[level - 1]) * s + high * s * down_[level - 1];
}

int FatTree::child_up_port(int level, NodeId position, int i) const {
  const NodeId s = stride_[level][level - 1];
  const int parent_digit = static_cast<int>((position / s) % up_[level - 1]);
  return parent_digit + (i / down_[level - 1]) * up_[level - 1];
}

long long FatTree::simgrid_id(int level, NodeId position) const {
  if (level == 0) return position;
  NodeId before = 0;
  for (int l = 1; l < level; ++l) before += count_[l];
  return 2 * count_[0] - 1 - (before + position);
}

FatTree::ChannelEnds FatTree::ends(ChannelId c) const {
  const ChannelId link = c / 2;
  int level = 0;
  while (link >= link_offset_[level + 1]) ++level;
  const ChannelId r = link - link_offset_[level];
  return {level, r / up_ports(level), static_cast<int>(r % up_ports(level)), c % 2 == 0};
}

bool FatTree::is_below(NodeId node, int level, NodeId position) const {
  if (level == 0) return node == position;
  return node / stride_[0][level] == position / stride_[level][level];
}

int FatTree::common_level(NodeId a, NodeId b) const {
  int level = 0;
  for (int j = 0; j < levels_; ++j)
    if (digit(0, a, j) != digit(0, b, j)) level = j + 1;
  return level;
}

int FatTree::hops(NodeId a, NodeId b) const { return 2 * common_level(a, b); }

int FatTree::diameter() const {
  int top = 0;
  for (int j = 0; j < levels_; ++j)
    if (down_[j] > 1) top = j + 1;
  return 2 * top;
}

// Two nodes in the same group of level l but not of level l-1 are 2 l hops apart, so the sum is
// over the levels of 2 l times the nodes in x's group of level l and not of level l-1.
std::vector<double> FatTree::hops_to_all(std::span<const NodeId> nodes) const {
  std::vector<double> total(nodes.size(), 0.0);
  std::vector<NodeId> below(nodes.size(), 0);  // entries in x's group of the level before
  std::unordered_map<NodeId, NodeId> count;
  for (int level = 0; level <= levels_; ++level) {
    count.clear();
    for (NodeId n : nodes) ++count[n / level_size(level)];
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const NodeId here = count[nodes[i] / level_size(level)];
      total[i] += 2.0 * level * static_cast<double>(here - below[i]);
      below[i] = here;
    }
  }
  return total;
}

std::string FatTree::channel_name(ChannelId c) const {
  const ChannelEnds e = ends(c);
  const std::string low = std::to_string(simgrid_id(e.level, e.position));
  const std::string high = std::to_string(simgrid_id(e.level + 1, parent(e.level, e.position, e.port)));
  const std::string copy = " #" + std::to_string(e.port / up_[e.level]);
  return e.going_up ? "up " + low + "->" + high + copy : "down " + high + "->" + low + copy;
}

std::pair<NodeId, int> FatTree::channel_home(ChannelId c) const {
  const ChannelEnds e = ends(c);
  const NodeId group = e.position / stride_[e.level][e.level];
  return {group * stride_[0][e.level], e.level};
}

}  // namespace rankmap::topology
