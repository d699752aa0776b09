// The concrete grid routing models behind make_routing_model().
#pragma once

#include "pattern_routing.hpp"

namespace rankmap::topology::detail {

class DorRouting final : public PatternRouting {
 public:
  DorRouting(Grid grid, std::vector<int> order);
  std::string name() const override;

 protected:
  std::vector<RouteStep> build_pattern(const OffsetKey& key) const override;

 private:
  std::vector<int> order_;
};

class AdaptiveRouting final : public PatternRouting {
 public:
  using PatternRouting::PatternRouting;
  std::string name() const override { return "adaptive"; }

 protected:
  std::vector<RouteStep> build_pattern(const OffsetKey& key) const override;
};

class AdaptiveHopRouting final : public PatternRouting {
 public:
  using PatternRouting::PatternRouting;
  std::string name() const override { return "adaptive-hop"; }

 protected:
  std::vector<RouteStep> build_pattern(const OffsetKey& key) const override;
};

}  // namespace rankmap::topology::detail
