// The RAHTM driver: hierarchies to try, the three phases, slots within nodes, and registration.
#include "rahtm.hpp"

#include "block_tree.hpp"
#include "clustering.hpp"
#include "cube_solver.hpp"
#include "merge.hpp"
#include "params.hpp"
#include "top_down.hpp"
#include "mapping/parallel_for.hpp"

#include <rankmap/metrics/channel_load.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>

namespace rankmap::rahtm {

namespace {

/// Share of a hierarchy's progress given to clustering and top-down mapping (the rest: merging).
constexpr double kTopDownShare = 0.6;

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
  const mapping::Deadline deadline(options.time_budget_ms);
  const mapping::Deadline top_down_deadline(kTopDownBudgetShare * options.time_budget_ms);
  RahtmParams params = parse_rahtm_params(options.parameter);
  params.clustering.seed = options.seed;
  const auto routing = topology::shared_routing_model(alloc.network(), options.routing);
  const int threads = std::max(1, options.threads);

  std::vector<BlockTree> trees;
  std::vector<SplitPolicy> policies;
  for (int cube = params.max_cube_dims; cube >= std::max(1, params.max_cube_dims - params.cube_sizes + 1); --cube)
    for (bool short_first : {false, true}) {
      if ((params.uneven == UnevenOrder::bottom && short_first) || (params.uneven == UnevenOrder::top && !short_first))
        continue;
      BlockTree tree(alloc, SplitPolicy{cube, short_first});
      if (std::none_of(trees.begin(), trees.end(), [&](const BlockTree& t) { return same_hierarchy(t, tree); })) {
        trees.push_back(std::move(tree));
        policies.push_back({cube, short_first});
      }
    }

  CubeSolverOptions solver_options;
  solver_options.search = {params.kicks, options.seed};
  solver_options.milp.max_nodes = params.milp_nodes;
  solver_options.milp.max_seconds = params.milp_seconds;
  solver_options.max_milp_columns = params.milp_max_columns;
  solver_options.use_milp = params.use_milp;
  solver_options.threads = threads;
  solver_options.deadline = &top_down_deadline;
  CubeSolver solver(solver_options);

  // Top-down mapping of every hierarchy the budget leaves time for first, on the shared solver
  // (its cube problems recur between hierarchies and are solved in parallel), then the merges,
  // one hierarchy per thread: a merge's beam parallelises poorly at 1,024 tasks, independent
  // hierarchies perfectly.
  std::size_t n = trees.size();
  std::vector<std::atomic<double>> done(n);
  auto report_progress = [&] {
    if (!options.progress) return;
    double sum = 0;
    for (const auto& f : done) sum += f.load();
    options.progress(sum / static_cast<double>(trees.size()));
  };
  std::vector<std::vector<int>> node_of_task(n);
  std::vector<std::string> clustering_of(n);
  double last_top_down_ms = 0;
  for (std::size_t h = 0; h < n; ++h) {
    // Another hierarchy only if the time left for phases 1 and 2 covers one more like the last.
    if (h > 0 && top_down_deadline.remaining_ms() < last_top_down_ms) {
      for (std::size_t k = h; k < n; ++k) done[k] = 1;  // left out
      n = h;
      break;
    }
    const auto start = std::chrono::steady_clock::now();
    const Clustering clustering(graph, trees[h], params.clustering, &top_down_deadline);
    clustering_of[h] = clustering.description();
    node_of_task[h] = map_top_down(graph, trees[h], clustering, solver, [&, h](double f) {
      done[h] = kTopDownShare * f;
      report_progress();
    });
    last_top_down_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  const int outer = static_cast<int>(std::min<std::size_t>(n, static_cast<std::size_t>(threads)));
  // Each wave of `outer` hierarchies merges until its share of the time left has passed.
  const std::size_t waves = (n + outer - 1) / outer;
  const double merge_ms = std::max(0.0, deadline.remaining_ms());
  std::vector<mapping::Deadline> merge_deadline;
  for (std::size_t h = 0; h < n; ++h)
    merge_deadline.emplace_back(merge_ms * static_cast<double>(h / outer + 1) / static_cast<double>(waves));
  std::vector<mapping::Mapping> slot_of(n);
  std::vector<double> mcl(n);
  std::vector<MergeStats> merge_stats(n);
  mapping::detail::parallel_for(n, outer, [&](std::size_t h, int worker) {
    const MergeOptions merge_options{params.beam, std::max(1, threads / outer), MergeOptions{}.max_orientations,
                                     &merge_deadline[h]};
    merge_stats[h] = merge_blocks(graph, alloc, trees[h], *routing, node_of_task[h], merge_options,
                                  [&, h, worker](double f) {
                                    done[h] = kTopDownShare + (1 - kTopDownShare) * f;
                                    if (worker == 0) report_progress();  // MapOptions::progress: the calling thread only
                                  });
    slot_of[h] = slots_from_nodes(alloc, node_of_task[h]);
    // Routing the result costs up to three times an evaluation of the launcher's order (fft2d, 1,024
    // tasks) and ran past the deadline; it is needed only to choose among hierarchies, or to report.
    if (n > 1 || report) mcl[h] = metrics::max_channel_load(graph, alloc, slot_of[h], *routing);
  });
  const std::size_t best = static_cast<std::size_t>(std::min_element(mcl.begin(), mcl.end()) - mcl.begin());
  RahtmReport best_report;
  best_report.clustering = clustering_of[best];
  best_report.short_dims_first = policies[best].short_dims_first;
  best_report.cube_dims = policies[best].max_cube_dims;
  best_report.mcl = mcl[best];
  if (report) {
    *report = best_report;
    report->hierarchies = static_cast<int>(n);
    report->hierarchies_skipped = static_cast<int>(trees.size() - n);
    report->cube_problems = solver.stats().problems;
    report->cube_solved = solver.stats().solved;
    report->cube_proven = solver.stats().proven;
    report->cube_too_large = solver.stats().too_large;
    report->milp_skipped = solver.stats().milp_skipped;
    report->narrowest_beam = params.beam;
    for (const MergeStats& s : merge_stats) {
      report->narrowest_beam = std::min(report->narrowest_beam, s.narrowest_beam);
      report->merges_cut += s.merges_cut;
    }
  }
  return std::move(slot_of[best]);
}

}  // namespace rankmap::rahtm

namespace rankmap::mapping {

Mapping map_rahtm(const graph::CommGraph& graph, const topology::Allocation& alloc, const MapOptions& options) {
  topology::require_grid(alloc.network(), "rahtm");
  return rahtm::run_rahtm(graph, alloc, options);
}

}  // namespace rankmap::mapping
