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
