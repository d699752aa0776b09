// Level-synchronous top-down mapping of cluster graphs onto the cubes of the block tree.
#include "top_down.hpp"

#include <unordered_map>

namespace rankmap::rahtm {

CubeProblem block_problem(const graph::CommGraph& graph, const BlockTree& tree, int block,
                          const std::vector<std::vector<TaskId>>& parts) {
  CubeProblem p = tree.cube_of(block);
  const int k = static_cast<int>(parts.size());
  std::unordered_map<TaskId, int> part_of;
  for (int a = 0; a < k; ++a) {
    p.cluster_size.push_back(static_cast<std::int64_t>(parts[a].size()));
    for (TaskId t : parts[a]) part_of.emplace(t, a);
  }
  p.traffic.assign(static_cast<std::size_t>(k) * k, 0.0);
  for (int a = 0; a < k; ++a)
    for (TaskId t : parts[a]) {
      const auto targets = graph.out_neighbors(t);
      const auto weights = graph.out_weights(t);
      for (std::size_t e = 0; e < targets.size(); ++e)
        if (auto it = part_of.find(targets[e]); it != part_of.end() && it->second != a)
          p.traffic[static_cast<std::size_t>(a) * k + it->second] += weights[e];
    }
  return p;
}

std::vector<int> map_top_down(const graph::CommGraph& graph, const BlockTree& tree, const Clustering& clustering,
                              CubeSolver& solver, const std::function<void(double)>& report) {
  std::vector<std::vector<TaskId>> tasks_of(tree.num_blocks());
  tasks_of[tree.root()].resize(static_cast<std::size_t>(graph.num_tasks()));
  for (TaskId t = 0; t < graph.num_tasks(); ++t) tasks_of[tree.root()][t] = t;
  const int levels = tree.height() - 1;
  for (int depth = 0; depth < levels; ++depth) {
    std::vector<int> blocks;
    std::vector<std::vector<std::vector<TaskId>>> parts;
    std::vector<CubeProblem> problems;
    for (int b : tree.blocks_at_depth(depth)) {
      if (tree.block(b).is_leaf()) continue;
      blocks.push_back(b);
      parts.push_back(clustering.split(graph, tree, b, tasks_of[b]));
      problems.push_back(block_problem(graph, tree, b, parts.back()));
      tasks_of[b].clear();
      tasks_of[b].shrink_to_fit();
    }
    const auto placements = solver.solve_all(problems, [&](std::size_t done, std::size_t total) {
      if (report) report((depth + static_cast<double>(done) / static_cast<double>(total)) / levels);
    });
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      const Block& block = tree.block(blocks[i]);
      for (std::size_t a = 0; a < parts[i].size(); ++a)
        tasks_of[block.child_of_vertex[placements[i].vertex_of[a]]] = std::move(parts[i][a]);
    }
    if (report) report(static_cast<double>(depth + 1) / levels);
  }
  std::vector<int> node_of_task(static_cast<std::size_t>(graph.num_tasks()), -1);
  for (int leaf : tree.leaves())
    for (TaskId t : tasks_of[leaf]) node_of_task[t] = tree.block(leaf).alloc_node;
  return node_of_task;
}

}  // namespace rankmap::rahtm
