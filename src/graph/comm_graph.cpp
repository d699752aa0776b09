// CSR construction with canonical edge order, views and the canonical hash.
#include <rankmap/graph/comm_graph.hpp>
#include <rankmap/hash.hpp>

#include <algorithm>
#include <cmath>

namespace rankmap::graph {

CommGraph CommGraph::from_edges(TaskId num_tasks, std::vector<Edge> edges) {
  if (num_tasks < 0) throw InputError("graph: negative task count");
  for (const Edge& e : edges) {
    if (e.src < 0 || e.src >= num_tasks || e.dst < 0 || e.dst >= num_tasks)
      throw InputError("graph: edge " + std::to_string(e.src) + " -> " + std::to_string(e.dst) +
                       " is outside tasks 0.." + std::to_string(num_tasks - 1));
    if (!std::isfinite(e.weight) || e.weight < 0)
      throw InputError("graph: edge " + std::to_string(e.src) + " -> " + std::to_string(e.dst) +
                       " has weight " + std::to_string(e.weight) + "; weights must be finite and >= 0");
  }
  // Sorting by weight too makes the merged sums independent of the input order.
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    if (a.src != b.src) return a.src < b.src;
    if (a.dst != b.dst) return a.dst < b.dst;
    return a.weight < b.weight;
  });
  CommGraph g;
  g.num_tasks_ = num_tasks;
  g.offsets_.assign(static_cast<std::size_t>(num_tasks) + 1, 0);
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    double w = 0;
    while (j < edges.size() && edges[j].src == edges[i].src && edges[j].dst == edges[i].dst) w += edges[j++].weight;
    g.targets_.push_back(edges[i].dst);
    g.weights_.push_back(w);
    g.total_weight_ += w;
    ++g.offsets_[edges[i].src + 1];
    i = j;
  }
  for (TaskId t = 0; t < num_tasks; ++t) g.offsets_[t + 1] += g.offsets_[t];
  return g;
}

std::vector<Edge> CommGraph::edges() const {
  std::vector<Edge> out;
  out.reserve(targets_.size());
  for (TaskId t = 0; t < num_tasks_; ++t)
    for (std::int64_t k = offsets_[t]; k < offsets_[t + 1]; ++k) out.push_back({t, targets_[k], weights_[k]});
  return out;
}

CommGraph CommGraph::transposed() const {
  std::vector<Edge> e = edges();
  for (Edge& x : e) std::swap(x.src, x.dst);
  return from_edges(num_tasks_, std::move(e));
}

// Merges each task's out-list with its in-list (both sorted by neighbour) instead of sorting the
// doubled edge list: that sort took 16 to 35 ms at 8,192 tasks, and every member of auto
// symmetrizes the graph. The result is what from_edges gives the doubled list: a pair's two weights
// added to 0 (the sum of two is the same in either order), the total in task order.
CommGraph CommGraph::symmetrized() const {
  const std::vector<std::int64_t> in_offsets = in_list_offsets();
  std::vector<TaskId> in_sources(static_cast<std::size_t>(in_offsets.back()));
  std::vector<double> in_weights(in_sources.size());
  std::vector<std::int64_t> cursor(in_offsets.begin(), in_offsets.end() - 1);
  for (TaskId t = 0; t < num_tasks_; ++t)  // sources in increasing order, so every in-list is sorted
    for (std::int64_t k = offsets_[t]; k < offsets_[t + 1]; ++k)
      if (targets_[k] != t) {
        const std::int64_t at = cursor[targets_[k]]++;
        in_sources[at] = t;
        in_weights[at] = weights_[k];
      }
  CommGraph g;
  g.num_tasks_ = num_tasks_;
  g.offsets_.assign(static_cast<std::size_t>(num_tasks_) + 1, 0);
  g.targets_.reserve(2 * targets_.size());
  g.weights_.reserve(2 * targets_.size());
  for (TaskId t = 0; t < num_tasks_; ++t) {
    std::int64_t out = offsets_[t], in = in_offsets[t];
    const std::int64_t out_end = offsets_[t + 1], in_end = in_offsets[t + 1];
    while (out < out_end || in < in_end) {
      if (out < out_end && targets_[out] == t) {
        ++out;
        continue;
      }
      const TaskId u = in == in_end || (out < out_end && targets_[out] < in_sources[in]) ? targets_[out]
                                                                                          : in_sources[in];
      double w = 0;
      if (out < out_end && targets_[out] == u) w += weights_[out++];
      if (in < in_end && in_sources[in] == u) w += in_weights[in++];
      g.targets_.push_back(u);
      g.weights_.push_back(w);
      g.total_weight_ += w;
    }
    g.offsets_[t + 1] = static_cast<std::int64_t>(g.targets_.size());
  }
  return g;
}

// Group by group, summing into a dense row of the groups reached: building the edge list and
// sorting it, as from_edges would, could not be stopped and took most of a concentration on dense
// graphs (1,047,552 edges of alltoall with 2 tasks per node: 60 to 80 ms), and most of scoring
// one (node flows are the graph contracted to nodes). Sums run in task order, then edge order.
bool CommGraph::for_each_contracted_row(std::span<const int> group_of, int groups,
                                        const ContractedRowVisit& visit) const {
  if (static_cast<TaskId>(group_of.size()) != num_tasks_ || groups < 0 ||
      std::any_of(group_of.begin(), group_of.end(), [groups](int g) { return g < 0 || g >= groups; }))
    throw InputError("graph: contracting " + std::to_string(num_tasks_) + " tasks needs one group in 0.." +
                     std::to_string(groups - 1) + " per task");
  std::vector<std::int64_t> first(static_cast<std::size_t>(groups) + 1, 0);
  for (int g : group_of) ++first[g + 1];
  for (int g = 0; g < groups; ++g) first[g + 1] += first[g];
  std::vector<TaskId> members(group_of.size());
  std::vector<std::int64_t> cursor(first.begin(), first.end() - 1);
  for (TaskId t = 0; t < num_tasks_; ++t) members[cursor[group_of[t]]++] = t;

  std::vector<double> row(static_cast<std::size_t>(groups), 0.0);
  std::vector<int> row_of(static_cast<std::size_t>(groups), -1);  // which group's row an entry holds
  std::vector<int> reached;
  std::vector<double> weights;
  for (int a = 0; a < groups; ++a) {
    for (std::int64_t i = first[a]; i < first[a + 1]; ++i)
      for (std::int64_t k = offsets_[members[i]]; k < offsets_[members[i] + 1]; ++k) {
        const int b = group_of[targets_[k]];
        if (b == a) continue;
        if (row_of[b] != a) row_of[b] = a, row[b] = 0, reached.push_back(b);
        row[b] += weights_[k];
      }
    // A row that reaches more than an eighth of the groups is scanned whole: sorting k of n groups
    // costs about k log2 k steps against the scan's n.
    if (reached.size() * 8 > row.size()) {
      reached.clear();
      for (int b = 0; b < groups; ++b)
        if (row_of[b] == a) reached.push_back(b);
    } else {
      std::sort(reached.begin(), reached.end());
    }
    weights.clear();
    for (int b : reached) weights.push_back(row[b]);
    if (!visit(a, reached, weights)) return false;
    reached.clear();
  }
  return true;
}

CommGraph CommGraph::contracted(std::span<const int> group_of, int groups) const {
  CommGraph q;
  q.num_tasks_ = groups;
  q.offsets_.assign(static_cast<std::size_t>(std::max(groups, 0)) + 1, 0);
  const auto pairs = static_cast<std::uint64_t>(std::max(groups, 0)) * static_cast<std::uint64_t>(std::max(groups - 1, 0));
  q.targets_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(targets_.size(), pairs)));
  q.weights_.reserve(q.targets_.capacity());
  for_each_contracted_row(group_of, groups, [&q](int a, std::span<const int> targets, std::span<const double> weights) {
    for (std::size_t k = 0; k < targets.size(); ++k) {
      q.targets_.push_back(targets[k]);
      q.weights_.push_back(weights[k]);
      q.total_weight_ += weights[k];
    }
    q.offsets_[a + 1] = static_cast<std::int64_t>(q.targets_.size());
    return true;
  });
  return q;
}

/// Where each task's list of incoming edges (self-loops left out) starts, as in offsets_.
std::vector<std::int64_t> CommGraph::in_list_offsets() const {
  std::vector<std::int64_t> in_offsets(static_cast<std::size_t>(num_tasks_) + 1, 0);
  for (TaskId t = 0; t < num_tasks_; ++t)
    for (std::int64_t k = offsets_[t]; k < offsets_[t + 1]; ++k)
      if (targets_[k] != t) ++in_offsets[targets_[k] + 1];
  for (TaskId t = 0; t < num_tasks_; ++t) in_offsets[t + 1] += in_offsets[t];
  return in_offsets;
}

std::uint64_t CommGraph::canonical_hash() const {
  StableHash h;
  h.u64(static_cast<std::uint64_t>(num_tasks_));
  h.u64(static_cast<std::uint64_t>(targets_.size()));
  for (TaskId t = 0; t < num_tasks_; ++t)
    for (std::int64_t k = offsets_[t]; k < offsets_[t + 1]; ++k) {
      h.u64(static_cast<std::uint64_t>(t));
      h.u64(static_cast<std::uint64_t>(targets_[k]));
      h.f64(weights_[k]);
    }
  return h.digest();
}

}  // namespace rankmap::graph
