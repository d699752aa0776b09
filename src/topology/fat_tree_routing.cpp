// Fat-tree routing: SimGrid's destination-mod-k routes, and an even split over every shortest path.
#include <rankmap/topology/fat_tree.hpp>

#include "network_routing.hpp"

namespace rankmap::topology::detail {

namespace {

/// SimGrid 3.32's FatTreeZone::get_local_route, step for step. Up: from level l the flow takes up
/// port (dst / (u_1 ... u_l)) mod (u_{l+1} p_{l+1}) until it reaches a common ancestor. Down: from
/// a switch of level l SimGrid scans its down ports from (src mod p_l) d_l for the first one leading
/// toward dst, and keeps scanning from the next port number at the switch it reaches; only when a
/// scan runs past the last port does it start again at the current switch. The copies of parallel
/// links taken down therefore depend on the port numbers of the switches above, as in SimGrid.
class DmodkRouting final : public ShareRouting {
 public:
  explicit DmodkRouting(const Network& network) : ShareRouting(network), tree_(*this->network().fat_tree()) {}
  std::string name() const override { return "dmodk"; }

  void route(NodeId src, NodeId dst, std::vector<ChannelShare>& out) const override {
    if (src == dst) return;
    const int top = tree_.common_level(src, dst);
    int level = 0;
    NodeId position = src;
    for (NodeId d = dst; level < top; ++level) {
      const int q = static_cast<int>(d % tree_.up_ports(level));
      out.push_back({tree_.channel(level, position, q, true), 1.0});
      position = tree_.parent(level, position, q);
      d /= tree_.up(level + 1);
    }
    while (level > 0) {
      long long i = (src % tree_.parallel(level)) * static_cast<long long>(tree_.down(level));
      while (level > 0) {
        const int m = tree_.down(level);
        const int toward = tree_.digit(0, dst, level - 1);
        i += ((toward - i % m) % m + m) % m;
        if (i >= tree_.down_ports(level)) break;  // the scan ran past the last port
        const int port = static_cast<int>(i);
        const NodeId below = tree_.child(level, position, port);
        out.push_back({tree_.channel(level - 1, below, tree_.child_up_port(level, position, port), false), 1.0});
        position = below;
        --level;
        ++i;
      }
    }
  }

 private:
  const FatTree& tree_;
};

/// Every shortest path equally: at each level up, the flow sits evenly on the source's ancestors
/// and leaves each through all its up ports alike; down, it sits evenly on the destination's
/// ancestors and reaches the next one through all the parallel links alike.
class FatTreeAdaptiveRouting final : public ShareRouting {
 public:
  explicit FatTreeAdaptiveRouting(const Network& network)
      : ShareRouting(network), tree_(*this->network().fat_tree()) {}
  std::string name() const override { return "adaptive"; }

  void route(NodeId src, NodeId dst, std::vector<ChannelShare>& out) const override {
    if (src == dst) return;
    const int top = tree_.common_level(src, dst);
    for (int level = 0; level < top; ++level) {
      const NodeId ancestors = tree_.ancestors(level);
      const NodeId first = src / tree_.level_size(level) * ancestors;
      const double share = 1.0 / (static_cast<double>(ancestors) * tree_.up_ports(level));
      for (NodeId a = 0; a < ancestors; ++a)
        for (int q = 0; q < tree_.up_ports(level); ++q) out.push_back({tree_.channel(level, first + a, q, true), share});
    }
    for (int level = top; level > 0; --level) {
      const NodeId ancestors = tree_.ancestors(level);
      const NodeId first = dst / tree_.level_size(level) * ancestors;
      const int copies = tree_.parallel(level);
      const double share = 1.0 / (static_cast<double>(ancestors) * copies);
      const int toward = tree_.digit(0, dst, level - 1);
      for (NodeId a = 0; a < ancestors; ++a)
        for (int k = 0; k < copies; ++k) {
          const int port = toward + k * tree_.down(level);
          const NodeId below = tree_.child(level, first + a, port);
          out.push_back({tree_.channel(level - 1, below, tree_.child_up_port(level, first + a, port), false), share});
        }
    }
  }

 private:
  const FatTree& tree_;
};

}  // namespace

std::unique_ptr<RoutingModel> make_fat_tree_routing(const Network& network, RoutingKind kind) {
  if (kind == RoutingKind::dmodk) return std::make_unique<DmodkRouting>(network);
  if (kind == RoutingKind::adaptive) return std::make_unique<FatTreeAdaptiveRouting>(network);
  return nullptr;
}

}  // namespace rankmap::topology::detail
