// The concrete grid routing models behind make_routing_model().
#pragma once

#include "pattern_routing.hpp"

namespace rankmap::topology::detail {

class DorRouting final : public PatternRouting {
 public:
  DorRouting(Grid grid, std::vector<int> order);
  std::string name() const override;

 protected:
  RoutePattern build_pattern(const OffsetKey& key) const override;

 private:
  std::vector<int> order_;
};

class AdaptiveRouting final : public PatternRouting {
 public:
  using PatternRouting::PatternRouting;
  std::string name() const override { return "adaptive"; }
  void add_flows_to(NodeId dst, std::span<const SourceBytes> sources, std::span<double> loads) const override;
  bool spreads_by_destination() const override { return true; }

 protected:
  RoutePattern build_pattern(const OffsetKey& key) const override;

 private:
  /// How many times the grid's node count the flows' box points must add up to for a walk.
  static constexpr double kWalkOverlap = 4;
};

class AdaptiveHopRouting final : public PatternRouting {
 public:
  using PatternRouting::PatternRouting;
  std::string name() const override { return "adaptive-hop"; }

 protected:
  RoutePattern build_pattern(const OffsetKey& key) const override;
};

}  // namespace rankmap::topology::detail
