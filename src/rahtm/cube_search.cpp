// Iterated swap local search on cube placements, with incremental channel loads.
#include "cube_search.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <stdexcept>

namespace rankmap::rahtm {

namespace {

struct Score {
  double mcl = 0;
  double sumsq = 0;
};

// MCL first; the sum of squared loads breaks the long plateaus MCL alone has.
bool better(const Score& a, const Score& b) {
  const double tol = 1e-12 * std::max(1.0, b.mcl);
  if (a.mcl < b.mcl - tol) return true;
  if (a.mcl > b.mcl + tol) return false;
  return a.sumsq < b.sumsq * (1 - 1e-12);
}

class SwapSearch {
 public:
  SwapSearch(const CubeProblem& p, std::span<const int> start) : p_(&p), vertex_of_(start.begin(), start.end()) {
    const int k = p.num_clusters();
    partners_.resize(k);
    for (int a = 0; a < k; ++a)
      for (int b = 0; b < k; ++b)
        if (a != b && (p.weight(a, b) > 0 || p.weight(b, a) > 0)) partners_[a].push_back(b);
    occupant_.assign(p.num_vertices(), -1);
    for (int a = 0; a < k; ++a) occupant_[vertex_of_[a]] = a;
    loads_ = cube_loads(p, vertex_of_);
    delta_.assign(loads_.size(), 0.0);
    score_ = score_of(loads_);
  }

  const std::vector<int>& placement() const { return vertex_of_; }
  Score score() const { return score_; }

  /// Best-improvement descent until no swap helps.
  void descend() {
    for (;;) {
      Score best = score_;
      int best_u = -1, best_v = -1;
      for (int u = 0; u < p_->num_vertices(); ++u)
        for (int v = u + 1; v < p_->num_vertices(); ++v) {
          if (!swappable(u, v)) continue;
          const Score s = evaluate_swap(u, v);
          if (better(s, best)) best = s, best_u = u, best_v = v;
        }
      if (best_u < 0) return;
      apply_swap(best_u, best_v);
    }
  }

  bool swappable(int u, int v) const {
    return p_->vertex_size[u] == p_->vertex_size[v] && p_->vertex_size[u] > 0 && (occupant_[u] >= 0 || occupant_[v] >= 0);
  }

  void apply_swap(int u, int v) {
    evaluate_swap(u, v);
    for (std::size_t c = 0; c < loads_.size(); ++c) loads_[c] += delta_[c];
    const int a = occupant_[u], b = occupant_[v];
    std::swap(occupant_[u], occupant_[v]);
    if (a >= 0) vertex_of_[a] = v;
    if (b >= 0) vertex_of_[b] = u;
    score_ = score_of(loads_);
  }

 private:
  Score score_of(const std::vector<double>& loads) const {
    Score s;
    for (double l : loads) s.mcl = std::max(s.mcl, l), s.sumsq += l * l;
    return s;
  }

  void add_route(int from, int to, double bytes) {
    if (bytes == 0 || from == to) return;
    for (const CubeShare& s : cube_route(p_->dims, from, to))
      delta_[s.channel] += bytes * s.fraction / p_->capacity[s.channel];
  }

  // Moves every flow of cluster `a` from vertex `old_at` to `new_at`; the partner `other` (the
  // cluster it swaps with) moves too and is handled once, by the caller.
  void move_flows(int a, int old_at, int new_at, int other) {
    for (int b : partners_[a]) {
      if (b == other) continue;
      const int at = vertex_of_[b];
      add_route(old_at, at, -p_->weight(a, b));
      add_route(at, old_at, -p_->weight(b, a));
      add_route(new_at, at, p_->weight(a, b));
      add_route(at, new_at, p_->weight(b, a));
    }
  }

  Score evaluate_swap(int u, int v) {
    std::fill(delta_.begin(), delta_.end(), 0.0);
    const int a = occupant_[u], b = occupant_[v];
    if (a >= 0) move_flows(a, u, v, b);
    if (b >= 0) move_flows(b, v, u, a);
    if (a >= 0 && b >= 0) {
      add_route(u, v, -p_->weight(a, b));
      add_route(v, u, -p_->weight(b, a));
      add_route(v, u, p_->weight(a, b));
      add_route(u, v, p_->weight(b, a));
    }
    Score s;
    for (std::size_t c = 0; c < loads_.size(); ++c) {
      const double l = loads_[c] + delta_[c];
      s.mcl = std::max(s.mcl, l);
      s.sumsq += l * l;
    }
    return s;
  }

  const CubeProblem* p_;
  std::vector<int> vertex_of_;
  std::vector<int> occupant_;
  std::vector<std::vector<int>> partners_;
  std::vector<double> loads_, delta_;
  Score score_;
};

}  // namespace

std::vector<int> ordered_placement(const CubeProblem& problem) {
  std::map<std::int64_t, std::vector<int>> free_vertices;
  for (int v = problem.num_vertices() - 1; v >= 0; --v)
    if (problem.vertex_size[v] > 0) free_vertices[problem.vertex_size[v]].push_back(v);
  std::vector<int> vertex_of(problem.num_clusters());
  for (int a = 0; a < problem.num_clusters(); ++a) {
    auto& pool = free_vertices[problem.cluster_size[a]];
    if (pool.empty()) throw std::invalid_argument("cube problem: cluster sizes do not match vertex sizes");
    vertex_of[a] = pool.back();
    pool.pop_back();
  }
  return vertex_of;
}

CubePlacement search_cube(const CubeProblem& problem, std::span<const int> start, const CubeSearchOptions& options) {
  SwapSearch best(problem, start);
  best.descend();
  std::mt19937_64 rng(options.seed);
  std::vector<std::pair<int, int>> moves;
  for (int u = 0; u < problem.num_vertices(); ++u)
    for (int v = u + 1; v < problem.num_vertices(); ++v)
      if (problem.vertex_size[u] == problem.vertex_size[v] && problem.vertex_size[u] > 0) moves.emplace_back(u, v);
  if (!moves.empty()) {
    for (int kick = 0; kick < options.kicks && !(options.deadline && options.deadline->passed()); ++kick) {
      SwapSearch trial = best;
      const int swaps = 2 + static_cast<int>(rng() % 3);
      for (int s = 0; s < swaps; ++s) {
        const auto [u, v] = moves[rng() % moves.size()];
        if (trial.swappable(u, v)) trial.apply_swap(u, v);
      }
      trial.descend();
      if (better(trial.score(), best.score())) best = trial;
    }
  }
  CubePlacement result;
  result.vertex_of = best.placement();
  result.mcl = cube_mcl(problem, result.vertex_of);
  return result;
}

}  // namespace rankmap::rahtm
