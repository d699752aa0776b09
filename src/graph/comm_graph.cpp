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

CommGraph CommGraph::symmetrized() const {
  std::vector<Edge> e;
  e.reserve(2 * targets_.size());
  for (const Edge& x : edges()) {
    if (x.src == x.dst) continue;
    e.push_back(x);
    e.push_back({x.dst, x.src, x.weight});
  }
  return from_edges(num_tasks_, std::move(e));
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
