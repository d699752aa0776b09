// Dragonfly routing: SimGrid's static minimal routes, an even split over the minimal paths, and Valiant.
#include <rankmap/topology/dragonfly.hpp>

#include "network_routing.hpp"

#include <algorithm>

namespace rankmap::topology::detail {

namespace {

class DragonflyRouting : public ShareRouting {
 public:
  explicit DragonflyRouting(const Network& network) : ShareRouting(network), df_(*this->network().dragonfly()) {}

 protected:
  /// Within one group: to the destination's blade in the source's chassis (green), then to the
  /// destination's chassis (black), as SimGrid orders the hops.
  void ordered(int from, int to, double share, std::vector<ChannelShare>& out) const {
    const Dragonfly::Router x = df_.router(from), y = df_.router(to);
    if (x.blade != y.blade) {
      out.push_back({df_.green(from, y.blade), share});
      from = df_.router_index(x.group, x.chassis, y.blade);
    }
    if (x.chassis != y.chassis) out.push_back({df_.black(from, y.chassis), share});
  }
  /// Router of `group` holding the global link to group `to`: chassis 0, blade `to`.
  int gateway(int group, int to) const { return df_.router_index(group, 0, to); }

  const Dragonfly& df_;
};

/// SimGrid 3.32's DragonflyZone::get_local_route, step for step, including what it does within a
/// group when the source is not in chassis 0 and the blades differ: after the green hop SimGrid
/// takes itself to be at the router of chassis 0, so the black hop that follows leaves chassis 0
/// (and none is taken if the destination is in chassis 0). docs/networks.md shows an example.
class MinimalRouting final : public DragonflyRouting {
 public:
  using DragonflyRouting::DragonflyRouting;
  std::string name() const override { return "minimal"; }

  void route(NodeId src, NodeId dst, std::vector<ChannelShare>& out) const override {
    if (src == dst) return;
    const int mine = df_.router_of(src), target = df_.router_of(dst);
    const Dragonfly::Router me = df_.router(mine), to = df_.router(target);
    out.push_back({df_.node_to_router(src), 1.0});
    if (target != mine) {
      int current = mine;
      if (to.group != me.group) {
        if (me.blade != to.group) {
          out.push_back({df_.green(current, to.group), 1.0});
          current = df_.router_index(me.group, me.chassis, to.group);
        }
        if (df_.router(current).chassis != 0) {
          out.push_back({df_.black(current, 0), 1.0});
          current = gateway(me.group, to.group);
        }
        out.push_back({df_.blue(current), 1.0});
        current = gateway(to.group, me.group);
      }
      if (to.blade != df_.router(current).blade) {
        out.push_back({df_.green(current, to.blade), 1.0});
        current = df_.router_index(to.group, 0, to.blade);  // SimGrid's index: chassis 0
      }
      if (to.chassis != df_.router(current).chassis) out.push_back({df_.black(current, to.chassis), 1.0});
    }
    out.push_back({df_.router_to_node(dst), 1.0});
  }
};

/// An even split over the shortest paths through the direct global link: within a group, when both
/// blade and chassis change, half the flow goes green then black, half black then green.
class DragonflyAdaptiveRouting final : public DragonflyRouting {
 public:
  using DragonflyRouting::DragonflyRouting;
  std::string name() const override { return "adaptive"; }

  void route(NodeId src, NodeId dst, std::vector<ChannelShare>& out) const override {
    if (src == dst) return;
    const int from = df_.router_of(src), to = df_.router_of(dst);
    const int gs = df_.router(from).group, gt = df_.router(to).group;
    out.push_back({df_.node_to_router(src), 1.0});
    if (gs == gt) {
      split(from, to, out);
    } else {
      split(from, gateway(gs, gt), out);
      out.push_back({df_.blue(gateway(gs, gt)), 1.0});
      split(gateway(gt, gs), to, out);
    }
    out.push_back({df_.router_to_node(dst), 1.0});
  }

 private:
  void split(int from, int to, std::vector<ChannelShare>& out) const {
    const Dragonfly::Router x = df_.router(from), y = df_.router(to);
    if (x.blade == y.blade || x.chassis == y.chassis) return ordered(from, to, 1.0, out);
    ordered(from, to, 0.5, out);
    out.push_back({df_.black(from, y.chassis), 0.5});
    out.push_back({df_.green(df_.router_index(x.group, y.chassis, x.blade), y.blade), 0.5});
  }
};

/// Valiant's routing, deterministically: a flow between groups is the average, over every other
/// group, of the minimal route to that group's gateway and on from there (green within chassis 0
/// of the intermediate group, then its global link to the destination group). Flows within a group,
/// and every flow when there are only two groups, take the minimal path (hops ordered as SimGrid's).
class ValiantRouting final : public DragonflyRouting {
 public:
  using DragonflyRouting::DragonflyRouting;
  std::string name() const override { return "valiant"; }

  void route(NodeId src, NodeId dst, std::vector<ChannelShare>& out) const override {
    if (src == dst) return;
    const std::size_t first = out.size();
    const int from = df_.router_of(src), to = df_.router_of(dst);
    const int gs = df_.router(from).group, gt = df_.router(to).group;
    out.push_back({df_.node_to_router(src), 1.0});
    if (gs == gt) {
      ordered(from, to, 1.0, out);
    } else if (df_.params().groups == 2) {
      ordered(from, gateway(gs, gt), 1.0, out);
      out.push_back({df_.blue(gateway(gs, gt)), 1.0});
      ordered(gateway(gt, gs), to, 1.0, out);
    } else {
      const double share = 1.0 / (df_.params().groups - 2);
      for (int gi = 0; gi < df_.params().groups; ++gi) {
        if (gi == gs || gi == gt) continue;
        ordered(from, gateway(gs, gi), share, out);
        out.push_back({df_.blue(gateway(gs, gi)), share});
        ordered(gateway(gi, gs), gateway(gi, gt), share, out);
        out.push_back({df_.blue(gateway(gi, gt)), share});
        ordered(gateway(gt, gi), to, share, out);
      }
    }
    out.push_back({df_.router_to_node(dst), 1.0});
    merge(out, first);
  }

 private:
  /// One entry per channel: legs through different groups share channels near both ends.
  static void merge(std::vector<ChannelShare>& out, std::size_t first) {
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
              [](const ChannelShare& a, const ChannelShare& b) { return a.channel < b.channel; });
    std::size_t kept = first;
    for (std::size_t k = first; k < out.size(); ++k) {
      if (kept > first && out[kept - 1].channel == out[k].channel) out[kept - 1].fraction += out[k].fraction;
      else out[kept++] = out[k];
    }
    out.resize(kept);
  }
};

}  // namespace

std::unique_ptr<RoutingModel> make_dragonfly_routing(const Network& network, RoutingKind kind) {
  switch (kind) {
    case RoutingKind::minimal: return std::make_unique<MinimalRouting>(network);
    case RoutingKind::adaptive: return std::make_unique<DragonflyAdaptiveRouting>(network);
    case RoutingKind::valiant: return std::make_unique<ValiantRouting>(network);
    default: return nullptr;
  }
}

}  // namespace rankmap::topology::detail
