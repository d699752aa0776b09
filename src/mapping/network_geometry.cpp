// Hop distances, near nodes, centrality and the level-by-level node search on any network.
#include "network_geometry.hpp"

#include <algorithm>
#include <numeric>

namespace rankmap::mapping::detail {

namespace {

/// Centre candidates: the heaviest anchors, as AnchorCost takes them on a grid.
constexpr std::size_t kMaxCentreAnchors = 32;

/// The lowest level whose groups span at least this many network nodes defines "near".
constexpr NodeId kNearGroupNodes = 4;

}  // namespace

DenseHops::DenseHops(const topology::Allocation& alloc) : alloc_(alloc) {
  const topology::Grid* grid = alloc.network().grid_if();
  if (!grid) return;
  ndims_ = grid->ndims();
  for (int d = 0; d < ndims_; ++d) wrap_[d] = grid->is_torus(d) ? grid->extent(d) : 2 * grid->extent(d);
  coords_.reserve(static_cast<std::size_t>(alloc.num_nodes()) * static_cast<std::size_t>(ndims_));
  for (int i = 0; i < alloc.num_nodes(); ++i) {
    const topology::Coords c = grid->coords_of(alloc.node(i));
    for (int d = 0; d < ndims_; ++d) coords_.push_back(static_cast<std::int16_t>(c[d]));
  }
}

NearNodes::NearNodes(const topology::Allocation& alloc) {
  const topology::Network& network = alloc.network();
  int level = 1;
  while (level < network.num_levels() && network.level_size(level) < kNearGroupNodes) ++level;
  const NodeId size = network.level_size(level);
  std::vector<int> order(static_cast<std::size_t>(alloc.num_nodes()));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return alloc.node(a) < alloc.node(b); });
  group_of_.resize(order.size());
  members_ = order;
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || alloc.node(order[k]) / size != alloc.node(order[k - 1]) / size) begin_.push_back(static_cast<int>(k));
    group_of_[order[k]] = static_cast<int>(begin_.size()) - 1;
  }
  begin_.push_back(static_cast<int>(order.size()));
}

std::vector<int> network_node_order(const topology::Allocation& alloc) {
  std::vector<int> order(static_cast<std::size_t>(alloc.num_nodes()));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return alloc.node(a) < alloc.node(b); });
  return order;
}

double LevelSearch::cost(std::span<const Anchor> anchors, int node) const {
  const topology::Network& network = alloc_.network();
  const NodeId id = alloc_.node(node);
  double total = 0;
  for (const Anchor& a : anchors) total += a.weight * network.hops(id, alloc_.node(a.node));
  return total;
}

int LevelSearch::centre(std::span<const Anchor> anchors) const {
  std::vector<const Anchor*> candidates;
  for (const Anchor& a : anchors) candidates.push_back(&a);
  if (candidates.size() > kMaxCentreAnchors) {
    std::partial_sort(candidates.begin(), candidates.begin() + kMaxCentreAnchors, candidates.end(),
                      [](const Anchor* a, const Anchor* b) { return a->weight > b->weight; });
    candidates.resize(kMaxCentreAnchors);
  }
  int best = candidates.front()->node;
  double best_cost = cost(anchors, best);
  for (const Anchor* a : candidates) {
    const double c = cost(anchors, a->node);
    if (c < best_cost) best = a->node, best_cost = c;
  }
  return best;
}

}  // namespace rankmap::mapping::detail
