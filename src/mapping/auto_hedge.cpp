// auto's hedge under the network's static routing.
#include "auto_hedge.hpp"

#include <rankmap/mapping/acceptance.hpp>

#include "parallel_for.hpp"
#include "portfolio.hpp"

#include <chrono>

namespace rankmap::mapping::detail {

DorHedge::DorHedge(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options)
    : graph_(graph),
      alloc_(alloc),
      phases_(hedged_phases(options)),
      active_(checks_dor(options, alloc.network())),
      named_routing_(options.routing_stated) {
  if (active_) model_ = hedge_routing_model(options, alloc.network());
}

std::optional<double> DorHedge::measure_launcher(const Deadline& deadline, const std::atomic<bool>& abandoned) {
  const auto start = std::chrono::steady_clock::now();
  if (active_) {
    launcher_load_ = route(identity_mapping(graph_.num_tasks()), &deadline, &abandoned);
    if (!launcher_load_) return std::nullopt;
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::optional<std::size_t> DorHedge::first_passing(std::vector<Candidate>& ranked, const Score& launcher,
                                                   const Deadline* deadline, const Deadline* budget_end, int threads) {
  std::vector<Score> scores;
  std::vector<std::string> names;
  for (const Candidate& c : ranked) scores.push_back(c.score), names.push_back(c.name);
  bool routed_one = route_ahead(ranked, scores, names, launcher, budget_end, threads);
  return first_kept(scores, launcher, [&](std::size_t k) {
    Candidate& c = ranked[k];
    if (!active_ || is_identity(c.mapping)) return false;
    if (!c.dor_load) {
      c.dor_load = route(c.mapping, routed_one ? deadline : nullptr);
      routed_one = true;
      if (!c.dor_load) return unchecked_.push_back(c.name), true;
    }
    return raises_load(*c.dor_load, launcher_load()) && (refused_.push_back(c.name), true);
  });
}

std::optional<DorLoads> DorHedge::loads_of(const Candidate& winner) const {
  if (!launcher_load_) return std::nullopt;
  return DorLoads{*launcher_load_, is_identity(winner.mapping) ? *launcher_load_ : *winner.dor_load};
}

std::string DorHedge::refusals() const {
  std::string text;
  if (!refused_.empty())
    text += named_routing_ ? "; refused for raising the phases' MCL under the named routing:"
                           : "; refused for raising the MCL under the network's static routing:";
  for (const std::string& name : refused_) text += ' ' + name;
  if (!unchecked_.empty()) text += "; refused for want of time to route them statically:";
  for (const std::string& name : unchecked_) text += ' ' + name;
  return text;
}

bool DorHedge::route_ahead(std::vector<Candidate>& ranked, std::span<const Score> scores,
                           std::span<const std::string> names, const Score& launcher, const Deadline* budget_end,
                           int threads) {
  if (!active_ || threads < 2) return false;
  const std::vector<std::size_t> ahead = picks_to_route_ahead(
      scores, names, launcher, [&](std::size_t k) { return !is_identity(ranked[k].mapping) && !ranked[k].dor_load; },
      threads);
  if (ahead.size() < 2) return false;
  const double launcher_dor = launcher_load();
  std::atomic<std::size_t> first_pass{ahead.size()};
  parallel_for(ahead.size(), threads, [&](std::size_t j, int) {
    Candidate& c = ranked[ahead[j]];
    c.dor_load = dor_max_channel_load(
        graph_, alloc_, c.mapping, phases_,
        [&] { return first_pass < j || (j > 0 && budget_end && budget_end->passed()); }, model_.get());
    if (!c.dor_load || raises_load(*c.dor_load, launcher_dor)) return;
    std::size_t seen = first_pass;
    while (j < seen && !first_pass.compare_exchange_weak(seen, j)) continue;
  });
  return true;
}

std::optional<double> DorHedge::route(const Mapping& m, const Deadline* deadline,
                                      const std::atomic<bool>* abandoned) const {
  const auto passed = [deadline, abandoned] { return (deadline && deadline->passed()) || (abandoned && *abandoned); };
  if (passed()) return std::nullopt;
  return dor_max_channel_load(graph_, alloc_, m, phases_, passed, model_.get());
}

double DorHedge::launcher_load() {
  if (!launcher_load_) launcher_load_ = route(identity_mapping(graph_.num_tasks()), nullptr);
  return *launcher_load_;
}

}  // namespace rankmap::mapping::detail
