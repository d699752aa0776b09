// The registry of the offline library: the core algorithms plus those of offline_algorithms.def,
// with an auto whose portfolio also has RAHTM's search.
#include <rankmap/mapping/offline.hpp>

#include "mapping/portfolio.hpp"

#include <algorithm>

namespace rankmap::mapping {

#define RANKMAP_ALGORITHM(function, name, summary) \
  Mapping function(const graph::CommGraph&, const topology::Allocation&, const MapOptions&);
#include "offline_algorithms.def"
#undef RANKMAP_ALGORITHM

namespace {

/// RAHTM without its MILPs matched MapLib's best peer mapping of NAS-CG (0.265 and 0.375 of the
/// identity's MCL on mesh and torus 4x4x4), where no core member came below 0.62. Unbounded it took
/// 1.5 to 8.7 s on 1,024 tasks (stencil27, nas-cg, random on torus:8x8x8) and tens of seconds on
/// fft2d, so it joins only budgets of a few seconds and graphs of at most 1,024 tasks, and within
/// them it gets 40% of the budget (not tuned: what is left after the core members' 25% and before
/// refine's share), which narrows its beam and cuts its merges (issue 18: with no share of its
/// own it had run unbounded, and auto@10s took 50 s and 140 s on fft2d in the SMPI benchmark).
constexpr detail::PortfolioMember kOfflineMembers[] = {
    {"rahtm:milp=off", &map_rahtm, "milp=off", 0.4, 5000, 1024, detail::MemberNetworks::grids},
};

Mapping map_auto_offline(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  static const std::vector<detail::PortfolioMember> members = [] {
    std::vector<detail::PortfolioMember> all(detail::core_members().begin(), detail::core_members().end());
    all.insert(all.end(), std::begin(kOfflineMembers), std::end(kOfflineMembers));
    return all;
  }();
  return detail::map_portfolio(graph, alloc, options, members);
}

}  // namespace

std::span<const AlgorithmInfo> all_algorithms() {
  static const std::vector<AlgorithmInfo> algorithms = [] {
    std::vector<AlgorithmInfo> all(core_algorithms().begin(), core_algorithms().end());
    const auto core_auto = std::find_if(all.begin(), all.end(), [](const AlgorithmInfo& a) { return a.name == "auto"; });
    core_auto->map = &map_auto_offline;
    core_auto->summary =
        "the default, on every network: identity plus, on tori and meshes, dimorder-best, hilbert, split, emahd, bisect "
        "and (at most 1,024 tasks, budget 5 s or more) rahtm:milp=off, on fat-trees and dragonflies emahd and tree:start, "
        "each refined, the best refined further; the best by the objective kept (auto:attempts=N for a result independent "
        "of the clock)";
#define RANKMAP_ALGORITHM(function, name, summary) all.push_back({name, &function, summary});
#include "offline_algorithms.def"
#undef RANKMAP_ALGORITHM
    return all;
  }();
  return algorithms;
}

}  // namespace rankmap::mapping
