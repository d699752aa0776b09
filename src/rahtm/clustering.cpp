// The choice between tiling and METIS, and the split of a block's tasks among its children.
#include "clustering.hpp"

#include "subgraph.hpp"

#include <rankmap/mapping/concentration.hpp>

#include <algorithm>
#include <map>

namespace rankmap::rahtm {

namespace {

// How close the tiling's node-level cut must come to METIS's to count as grid structure.
constexpr double kGridTolerance = 1.02;

std::string shape_text(const std::vector<int>& shape) {
  std::string s;
  for (std::size_t k = 0; k < shape.size(); ++k) s += (k ? "x" : "") + std::to_string(shape[k]);
  return s;
}

double metis_node_cut(const graph::CommGraph& graph, const BlockTree& tree, std::uint64_t seed,
                      const mapping::Deadline* deadline) {
  std::vector<int> sizes;
  for (int leaf : tree.leaves()) sizes.push_back(static_cast<int>(tree.block(leaf).slots));
  return cut_weight(graph, mapping::partition_exact(graph, sizes, seed, deadline));
}

}  // namespace

std::vector<std::int64_t> level_sizes(const BlockTree& tree) {
  std::vector<std::int64_t> sizes = {tree.block(tree.leaves().front()).slots};
  for (int depth = tree.height() - 2; depth >= 0; --depth)
    sizes.push_back(static_cast<std::int64_t>(tree.block(tree.blocks_at_depth(depth).front()).child_of_vertex.size()));
  return sizes;
}

Clustering::Clustering(const graph::CommGraph& graph, const BlockTree& tree, const ClusteringParams& params,
                       const mapping::Deadline* deadline)
    : seed_(params.seed), deadline_(deadline) {
  if (params.mode == ClusterMode::metis) return;
  if (!tree.is_regular()) {
    if (params.mode == ClusterMode::tile)
      throw InputError("rahtm: cluster=tile needs a full allocation with equal slots per node and power-of-two sides");
    return;
  }
  const std::vector<std::int64_t> sizes = level_sizes(tree);
  std::optional<Tiling> tiling;
  if (!params.task_grid.empty()) {
    std::int64_t product = 1;
    for (int g : params.task_grid) product *= g;
    if (product != graph.num_tasks())
      throw InputError("rahtm: grid=" + shape_text(params.task_grid) + " has " + std::to_string(product) +
                       " cells but the graph has " + std::to_string(graph.num_tasks()) + " tasks");
    tiling = tile_levels(graph, params.task_grid, sizes);
    if (!tiling)
      throw InputError("rahtm: grid=" + shape_text(params.task_grid) +
                       " cannot be cut into the tiles the hierarchy needs (level sizes must divide its sides)");
  } else {
    tiling = infer_tiling(graph, sizes, deadline_);
    if (!tiling) {
      if (params.mode == ClusterMode::tile) throw InputError("rahtm: cluster=tile: no tiling fits the task count");
      return;
    }
    if (params.mode == ClusterMode::automatic && tiling->cuts.front() > kGridTolerance * metis_node_cut(graph, tree, seed_, deadline_))
      return;
  }
  use_tiling(*tiling, tree);
}

void Clustering::use_tiling(const Tiling& tiling, const BlockTree& tree) {
  const int height = tree.height();
  cluster_of_depth_.resize(height);
  for (int depth = 0; depth < height; ++depth) cluster_of_depth_[depth] = tiling_clusters(tiling, height - depth);
  description_ = "tiling " + shape_text(tiling.task_grid) + ":";
  for (const auto& tile : tiling.tiles) description_ += " " + shape_text(tile);
}

std::vector<std::vector<TaskId>> Clustering::split(const graph::CommGraph& graph, const BlockTree& tree, int block,
                                                   std::span<const TaskId> tasks) const {
  const Block& b = tree.block(block);
  std::vector<std::vector<TaskId>> parts;
  if (tiled()) {
    std::map<int, std::vector<TaskId>> by_cluster;
    for (TaskId t : tasks) by_cluster[cluster_of_depth_[b.depth + 1][t]].push_back(t);
    for (auto& [cluster, members] : by_cluster) parts.push_back(std::move(members));
    return parts;
  }
  std::vector<int> sizes;
  for (int child : b.child_of_vertex)
    if (child >= 0) sizes.push_back(static_cast<int>(tree.block(child).slots));
  const std::vector<int> part =
      mapping::partition_exact(induced_subgraph(graph, tasks), sizes, seed_ + block, deadline_);
  parts.resize(sizes.size());
  for (std::size_t i = 0; i < tasks.size(); ++i) parts[part[i]].push_back(tasks[i]);
  return parts;
}

}  // namespace rankmap::rahtm
