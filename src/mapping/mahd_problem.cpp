// Setting up mahd's greedy: parameters, optional concentration, and expanding a run to slots.
#include "mahd_problem.hpp"

#include "slot_layout.hpp"
#include "symmetrized_memo.hpp"

#include <charconv>

namespace rankmap::mapping::detail {

MahdParameters parse_mahd_parameters(const MapOptions& options, std::string_view algorithm, bool takes_count) {
  MahdParameters p;
  std::string_view rest = options.parameter;
  while (!rest.empty()) {
    const std::size_t comma = std::min(rest.find(','), rest.size());
    const std::string_view token = rest.substr(0, comma);
    rest = comma < rest.size() ? rest.substr(comma + 1) : std::string_view();
    long long count = 0;
    const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), count);
    if (token == "direct") {
      p.concentrate = false;
    } else if (token == "concentrate") {
      p.concentrate = true;
    } else if (takes_count && ec == std::errc{} && ptr == token.data() + token.size() && count > 0) {
      p.max_starts = count;
    } else {
      throw InputError(std::string(algorithm) + ": parameter '" + std::string(token) + "' is not " +
                       (takes_count ? "direct, concentrate or a positive number of start nodes"
                                    : "direct or concentrate"));
    }
  }
  return p;
}

MahdProblem::MahdProblem(const graph::CommGraph& graph, const topology::Allocation& alloc, bool concentrate,
                         std::uint64_t seed, const Deadline* partition_deadline)
    : alloc_(alloc) {
  PlacementProblem problem;
  problem.capacity = node_slot_counts(alloc);
  if (concentrate && alloc.max_ppn() > 1) {
    concentration_ = mapping::concentrate(graph, alloc, seed, partition_deadline);
    item_graph_ = std::make_shared<const graph::CommGraph>(concentration_->group_graph.symmetrized());
    problem.demand = concentration_->group_size;
    problem.exact_fit = true;
  } else {
    item_graph_ = symmetrized(graph);
    problem.demand.assign(static_cast<std::size_t>(graph.num_tasks()), 1);
  }
  problem.graph = item_graph_.get();
  placer_ = std::make_unique<GreedyPlacer>(alloc, std::move(problem), NextItem::most_connected,
                                           Target::placed_neighbours);
}

Mapping MahdProblem::mapping(std::span<const int> node_of_item) const {
  return concentration_ ? expand_groups(*concentration_, alloc_, node_of_item) : slots_from_nodes(alloc_, node_of_item);
}

}  // namespace rankmap::mapping::detail
