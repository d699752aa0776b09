// Level-by-level driver of the merge: flows per block, allowed orientations, moving the tasks.
#include "merge.hpp"

#include "merge_beam.hpp"
#include "orientation.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <unordered_map>

namespace rankmap::rahtm {

namespace {

/// Which block holds each allocation node at every depth (-1 below a shallower leaf).
std::vector<std::vector<int>> ancestors(const BlockTree& tree, int num_nodes) {
  std::vector<std::vector<int>> at(tree.height(), std::vector<int>(num_nodes, -1));
  for (int node = 0; node < num_nodes; ++node)
    for (int b = tree.leaf_of_node(node); b >= 0; b = tree.block(b).parent) at[tree.block(b).depth][node] = b;
  return at;
}

/// The orientations of child `lead` that are not images of one another under a symmetry of the
/// parent's box keeping every child in place (exchanging or reflecting the dimensions the parent
/// did not split). Placed first, the lead child needs only these: the rest of the search is the
/// same up to that symmetry. Valid for routings symmetric under reflection and permutation of
/// equal dimensions (adaptive and adaptive-hop, not dor).
std::vector<char> lead_choices(const Box& parent, const std::vector<MergeChild>& kids, int lead,
                               const topology::Grid& grid) {
  const int ndims = grid.ndims();
  const int cells = static_cast<int>(box_volume(parent, ndims));
  std::vector<int> owner(cells, -1);
  std::vector<std::vector<int>> parent_cell(kids.size());
  for (std::size_t k = 0; k < kids.size(); ++k)
    for (int c = 0; c < static_cast<int>(kids[k].node_of_cell.size()); ++c) {
      const int pc = cell_of(parent, ndims, coords_of_cell(kids[k].box, ndims, c));
      owner[pc] = static_cast<int>(k);
      parent_cell[k].push_back(pc);
    }
  const MergeChild& child = kids[lead];
  std::map<std::vector<int>, int> index_of;
  for (std::size_t g = 0; g < child.cell_image.size(); ++g) index_of.emplace(child.cell_image[g], static_cast<int>(g));
  std::vector<int> rep(child.cell_image.size());
  for (std::size_t g = 0; g < rep.size(); ++g) rep[g] = static_cast<int>(g);
  std::vector<int> local_of_parent(cells, -1);
  for (int c = 0; c < static_cast<int>(parent_cell[lead].size()); ++c) local_of_parent[parent_cell[lead][c]] = c;
  for (const Orientation& h : box_orientations(parent, grid, 4096)) {
    const std::vector<int> image = cell_permutation(parent, ndims, h);
    bool keeps_children = true;
    for (int c = 0; c < cells && keeps_children; ++c) keeps_children = owner[c] < 0 || owner[image[c]] == owner[c];
    if (!keeps_children) continue;
    std::vector<int> h_local(parent_cell[lead].size());
    for (std::size_t c = 0; c < h_local.size(); ++c) h_local[c] = local_of_parent[image[parent_cell[lead][c]]];
    for (std::size_t g = 0; g < rep.size(); ++g) {
      std::vector<int> composed(h_local.size());
      for (std::size_t c = 0; c < composed.size(); ++c) composed[c] = h_local[child.cell_image[g][c]];
      if (const auto it = index_of.find(composed); it != index_of.end()) rep[g] = std::min(rep[g], it->second);
    }
  }
  std::vector<char> choices(rep.size());
  for (std::size_t g = 0; g < rep.size(); ++g) choices[g] = rep[g] == static_cast<int>(g);
  return choices;
}

/// The estimated work of merging a block, in arbitrary units: its flows grow with its slots, and
/// the beam scores every orientation of a child on its best partial solution and up to 2 * beam
/// of them on each of the others.
double merge_work(double slots, double turns, int beam) {
  return slots * (turns + (beam - 1) * std::min(turns, 2.0 * beam));
}

/// Narrows the beam as the deadline approaches: the time per unit of merge_work() is measured on
/// the merges done so far, and the beam is halved until the merges left would fit the time left.
class BeamPacer {
 public:
  BeamPacer(const BlockTree& tree, const topology::Grid& grid, const MergeOptions& options)
      : options_(options), slots_(tree.num_blocks(), 0.0), turns_(tree.num_blocks(), 0.0), pending_(tree.num_blocks(), 0) {
    for (int b = 0; b < tree.num_blocks(); ++b) {
      const Block& block = tree.block(b);
      if (block.is_leaf()) continue;
      const int first = *std::max_element(block.child_of_vertex.begin(), block.child_of_vertex.end());
      slots_[b] = static_cast<double>(block.slots);
      turns_[b] = static_cast<double>(box_orientations(tree.block(first).box, grid, options.max_orientations).size());
      pending_[b] = 1;
    }
  }

  double work(int block, int beam) const { return merge_work(slots_[block], turns_[block], beam); }

  /// The beam for `block`, or 0 once the deadline has passed.
  int beam_for(int block) const {
    if (!options_.deadline) return options_.beam;
    if (options_.deadline->passed()) return 0;
    int beam = options_.beam;
    if (done_work_ <= 0) return beam;
    const double ms_per_work = spent_ms_ / done_work_;
    const double left_ms = options_.deadline->remaining_ms();
    while (beam > 1 && ms_per_work * (work(block, beam) + work_left(block, beam)) > left_ms) beam /= 2;
    return beam;
  }

  void finished(int block, int beam, double ms) {
    pending_[block] = 0;
    done_work_ += work(block, beam);
    spent_ms_ += ms;
  }

 private:
  /// Of the blocks still pending other than `block`, at this beam.
  double work_left(int block, int beam) const {
    double sum = 0;
    for (std::size_t b = 0; b < pending_.size(); ++b)
      if (pending_[b] && static_cast<int>(b) != block) sum += work(static_cast<int>(b), beam);
    return sum;
  }

  const MergeOptions& options_;
  std::vector<double> slots_, turns_;
  std::vector<char> pending_;
  double done_work_ = 0, spent_ms_ = 0;
};

class MergeDriver {
 public:
  MergeDriver(const graph::CommGraph& graph, const topology::Allocation& alloc, const BlockTree& tree,
              const topology::RoutingModel& routing, std::vector<int>& node_of_task, const MergeOptions& options)
      : graph_(graph), alloc_(alloc), tree_(tree), routing_(routing), node_of_task_(node_of_task), options_(options),
        ancestor_(ancestors(tree, alloc.num_nodes())) {
    for (int i = 0; i < alloc.num_nodes(); ++i) alloc_node_of_.emplace(alloc.node(i), i);
  }

  /// Merges every block of a depth, each with the beam `pacer` allows; report(block, fraction)
  /// hears each block's progress.
  void merge_depth(int depth, BeamPacer& pacer, MergeStats& stats, const std::function<void(int, double)>& report) {
    std::vector<std::vector<TaskId>> tasks_of(tree_.num_blocks());
    for (TaskId t = 0; t < graph_.num_tasks(); ++t) {
      const int b = ancestor_[depth][node_of_task_[t]];
      if (b >= 0 && !tree_.block(b).is_leaf()) tasks_of[b].push_back(t);
    }
    for (int b : tree_.blocks_at_depth(depth))
      if (!tree_.block(b).is_leaf()) {
        const int beam = pacer.beam_for(b);
        const auto start = std::chrono::steady_clock::now();
        const bool cut = beam == 0 || !merge_block(b, tasks_of[b], beam, [&report, b](double f) {
          if (f < 1.0) report(b, f);  // the end is reported once, below
        });
        stats.merges_cut += cut;
        if (beam > 0) {
          stats.narrowest_beam = std::min(stats.narrowest_beam, beam);
          pacer.finished(b, beam, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
        report(b, 1.0);
      }
  }

 private:
  int slots_at(NodeId node) const {
    const auto it = alloc_node_of_.find(node);
    return it == alloc_node_of_.end() ? 0 : static_cast<int>(alloc_.slots_of_node(it->second).size());
  }

  MergeChild make_child(int block) const {
    const topology::Grid& grid = alloc_.grid();
    const int ndims = grid.ndims();
    MergeChild child;
    child.box = tree_.block(block).box;
    const int cells = static_cast<int>(box_volume(child.box, ndims));
    std::vector<int> slots(cells);
    for (int cell = 0; cell < cells; ++cell) {
      const topology::Coords c = coords_of_cell(child.box, ndims, cell);
      child.node_of_cell.push_back(grid.node_at(std::span<const int>(c.data(), ndims)));
      slots[cell] = slots_at(child.node_of_cell.back());
    }
    const std::size_t limit = std::max<std::size_t>(1, std::min(options_.max_orientations, (std::size_t{1} << 22) / cells));
    const std::vector<Orientation> all = box_orientations(child.box, grid, limit);
    for (std::size_t e = 0; e < all.size(); ++e) {
      std::vector<int> image = cell_permutation(child.box, ndims, all[e]);
      bool keeps_slots = true;
      for (int cell = 0; cell < cells && keeps_slots; ++cell) keeps_slots = slots[image[cell]] == slots[cell];
      if (!keeps_slots) continue;
      child.orientation_index.push_back(static_cast<int>(e));
      child.cell_image.push_back(std::move(image));
    }
    return child;
  }

  /// False if the deadline stopped the merge (the children then stay as they are).
  bool merge_block(int block, const std::vector<TaskId>& tasks, int beam, const std::function<void(double)>& report) {
    const Block& b = tree_.block(block);
    std::vector<int> children;  // block indices, in vertex order
    std::vector<int> index_of(tree_.num_blocks(), -1);
    for (int c : b.child_of_vertex)
      if (c >= 0) index_of[c] = static_cast<int>(children.size()), children.push_back(c);
    std::vector<MergeChild> merge_children_data;
    bool any_choice = false;
    for (int c : children) {
      merge_children_data.push_back(make_child(c));
      any_choice = any_choice || merge_children_data.back().cell_image.size() > 1;
    }
    if (!any_choice || children.size() < 2) return true;
    const std::vector<MergeFlow> flows = block_flows(b.depth, index_of, merge_children_data, tasks);
    const std::string routing_name = routing_.name();
    if (routing_name == "adaptive" || routing_name == "adaptive-hop") {
      const int lead = merge_order(merge_children_data, flows, routing_, &workspace_).front();
      merge_children_data[lead].lead_choices = lead_choices(b.box, merge_children_data, lead, alloc_.grid());
    }
    const BeamResult result =
        merge_children(merge_children_data, flows, routing_, {beam, options_.threads, report, &workspace_, options_.deadline});
    if (result.cut) return false;
    apply(b.depth, index_of, merge_children_data, result, tasks);
    return true;
  }

  std::vector<MergeFlow> block_flows(int depth, const std::vector<int>& index_of, const std::vector<MergeChild>& kids,
                                     const std::vector<TaskId>& tasks) const {
    const int n = alloc_.num_nodes();
    const int block = ancestor_[depth][node_of_task_[tasks.front()]];
    std::unordered_map<std::int64_t, double> bytes;
    for (TaskId t : tasks) {
      const int a = node_of_task_[t];
      const auto targets = graph_.out_neighbors(t);
      const auto weights = graph_.out_weights(t);
      for (std::size_t e = 0; e < targets.size(); ++e) {
        const int d = node_of_task_[targets[e]];
        if (d != a && weights[e] > 0 && ancestor_[depth][d] == block)
          bytes[static_cast<std::int64_t>(a) * n + d] += weights[e];
      }
    }
    std::vector<std::pair<std::int64_t, double>> sorted(bytes.begin(), bytes.end());
    std::sort(sorted.begin(), sorted.end());  // a deterministic flow order
    const int ndims = alloc_.grid().ndims();
    std::vector<MergeFlow> flows;
    for (const auto& [key, w] : sorted) {
      const int a = static_cast<int>(key / n), d = static_cast<int>(key % n);
      const int ca = index_of[ancestor_[depth + 1][a]], cd = index_of[ancestor_[depth + 1][d]];
      flows.push_back({ca, cell_of(kids[ca].box, ndims, alloc_.grid().coords_of(alloc_.node(a))), cd,
                       cell_of(kids[cd].box, ndims, alloc_.grid().coords_of(alloc_.node(d))), w});
    }
    return flows;
  }

  void apply(int depth, const std::vector<int>& index_of, const std::vector<MergeChild>& kids, const BeamResult& result,
             const std::vector<TaskId>& tasks) {
    const int ndims = alloc_.grid().ndims();
    for (TaskId t : tasks) {
      const int c = index_of[ancestor_[depth + 1][node_of_task_[t]]];
      const int entry = result.orientation[c];
      if (kids[c].orientation_index[entry] == 0) continue;
      const int cell = cell_of(kids[c].box, ndims, alloc_.grid().coords_of(alloc_.node(node_of_task_[t])));
      node_of_task_[t] = alloc_node_of_.at(kids[c].node_of_cell[kids[c].cell_image[entry][cell]]);
    }
  }

  const graph::CommGraph& graph_;
  const topology::Allocation& alloc_;
  const BlockTree& tree_;
  const topology::RoutingModel& routing_;
  std::vector<int>& node_of_task_;
  MergeOptions options_;
  std::vector<std::vector<int>> ancestor_;
  std::unordered_map<NodeId, int> alloc_node_of_;
  BeamWorkspace workspace_;
};

}  // namespace

MergeStats merge_blocks(const graph::CommGraph& graph, const topology::Allocation& alloc, const BlockTree& tree,
                        const topology::RoutingModel& routing, std::vector<int>& node_of_task,
                        const MergeOptions& options, const std::function<void(double)>& report) {
  MergeDriver driver(graph, alloc, tree, routing, node_of_task, options);
  BeamPacer pacer(tree, alloc.grid(), options);
  // Progress in units of estimated work at the full beam.
  std::vector<double> weight(tree.num_blocks(), 0.0);
  double total = 0, done = 0;
  for (int b = 0; b < tree.num_blocks(); ++b)
    if (!tree.block(b).is_leaf()) total += weight[b] = pacer.work(b, options.beam);
  MergeStats stats;
  stats.narrowest_beam = options.beam;
  for (int depth = tree.height() - 2; depth >= 0; --depth)
    driver.merge_depth(depth, pacer, stats, [&](int block, double fraction) {
      if (report) report((done + weight[block] * fraction) / total);
      if (fraction >= 1.0) done += weight[block];
    });
  return stats;
}

}  // namespace rankmap::rahtm
