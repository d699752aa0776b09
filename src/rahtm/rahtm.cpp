// The RAHTM driver: hierarchies to try, the three phases, slots within nodes, and registration.
#include "rahtm.hpp"

#include "block_tree.hpp"
#include "clustering.hpp"
#include "cube_solver.hpp"
#include "merge.hpp"
#include "params.hpp"
#include "top_down.hpp"

#include <rankmap/metrics/channel_load.hpp>

#include <stdexcept>

namespace rankmap::rahtm {

namespace {

bool same_hierarchy(const BlockTree& a, const BlockTree& b) {
  if (a.num_blocks() != b.num_blocks()) return false;
  for (int i = 0; i < a.num_blocks(); ++i)
    if (a.block(i).split_dims != b.block(i).split_dims) return false;
  return true;
}

/// Tasks of each node take its slots in ascending order (slots of one node are interchangeable).
mapping::Mapping slots_from_nodes(const topology::Allocation& alloc, const std::vector<int>& node_of_task) {
  std::vector<std::size_t> next(static_cast<std::size_t>(alloc.num_nodes()), 0);
  mapping::Mapping slot_of(node_of_task.size());
  for (std::size_t t = 0; t < node_of_task.size(); ++t) {
    const auto slots = alloc.slots_of_node(node_of_task[t]);
    if (next[node_of_task[t]] >= slots.size()) throw std::logic_error("rahtm: a node received more tasks than slots");
    slot_of[t] = slots[next[node_of_task[t]]++];
  }
  return slot_of;
}

}  // namespace

mapping::Mapping run_rahtm(const graph::CommGraph& graph, const topology::Allocation& alloc,
                           const mapping::MapOptions& options, RahtmReport* report) {
  if (graph.num_tasks() != alloc.num_slots())
    throw InputError("rahtm: the graph has " + std::to_string(graph.num_tasks()) + " tasks but the allocation " +
                     std::to_string(alloc.num_slots()) + " slots");
  RahtmParams params = parse_rahtm_params(options.parameter);
  params.clustering.seed = options.seed;
  const auto routing = topology::make_routing_model(alloc.grid(), options.routing);
  const int threads = std::max(1, options.threads);

  std::vector<BlockTree> trees;
  for (bool short_first : {false, true}) {
    if ((params.uneven == UnevenOrder::bottom && short_first) || (params.uneven == UnevenOrder::top && !short_first))
      continue;
    BlockTree tree(alloc, SplitPolicy{params.max_cube_dims, short_first});
    if (trees.empty() || !same_hierarchy(trees.front(), tree)) trees.push_back(std::move(tree));
  }

  CubeSolverOptions solver_options;
  solver_options.search = {params.kicks, options.seed};
  solver_options.milp.max_nodes = params.milp_nodes;
  solver_options.use_milp = params.use_milp;
  solver_options.threads = threads;
  CubeSolver solver(solver_options);

  mapping::Mapping best;
  RahtmReport best_report;
  for (std::size_t h = 0; h < trees.size(); ++h) {
    const BlockTree& tree = trees[h];
    auto progress = [&](double begin, double end) {
      return [&options, begin, end, h, n = trees.size()](double f) {
        if (options.progress) options.progress((static_cast<double>(h) + begin + (end - begin) * f) / n);
      };
    };
    const Clustering clustering(graph, tree, params.clustering);
    progress(0, 0.05)(1);
    std::vector<int> node_of_task = map_top_down(graph, tree, clustering, solver, progress(0.05, 0.6));
    merge_blocks(graph, alloc, tree, *routing, node_of_task, MergeOptions{std::max(1, options.beam), threads},
                 progress(0.6, 1.0));
    mapping::Mapping slot_of = slots_from_nodes(alloc, node_of_task);
    const double mcl = metrics::max_channel_load(graph, alloc, slot_of, *routing);
    if (best.empty() || mcl < best_report.mcl) {
      best = std::move(slot_of);
      best_report.clustering = clustering.description();
      best_report.short_dims_first = trees.size() > 1 ? h == 1 : params.uneven == UnevenOrder::top;
      best_report.mcl = mcl;
    }
  }
  if (report) {
    *report = best_report;
    report->hierarchies = static_cast<int>(trees.size());
    report->cube_problems = solver.stats().problems;
    report->cube_solved = solver.stats().solved;
    report->cube_proven = solver.stats().proven;
  }
  return best;
}

}  // namespace rankmap::rahtm

namespace rankmap::mapping {

Mapping map_rahtm(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  return rahtm::run_rahtm(graph, alloc, options);
}

}  // namespace rankmap::mapping
