// Canonical forms of cube problems, the solution cache, and the parallel solve of a level.
#include "cube_solver.hpp"
#include "mapping/parallel_for.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace rankmap::rahtm {

namespace {

std::vector<double> signature(const CubeProblem& p, int a) {
  std::vector<double> out, in;
  double out_total = 0, in_total = 0;
  for (int b = 0; b < p.num_clusters(); ++b) {
    if (p.weight(a, b) > 0) out.push_back(p.weight(a, b)), out_total += p.weight(a, b);
    if (p.weight(b, a) > 0) in.push_back(p.weight(b, a)), in_total += p.weight(b, a);
  }
  std::sort(out.begin(), out.end());
  std::sort(in.begin(), in.end());
  std::vector<double> s = {static_cast<double>(p.cluster_size[a]), out_total, in_total,
                           static_cast<double>(out.size())};
  s.insert(s.end(), out.begin(), out.end());
  s.insert(s.end(), in.begin(), in.end());
  return s;
}

template <typename T>
void append(std::string& key, const T* data, std::size_t count) {
  key.append(reinterpret_cast<const char*>(data), count * sizeof(T));
}

}  // namespace

CanonicalForm canonical_form(const CubeProblem& p) {
  CanonicalForm form;
  const int k = p.num_clusters();
  std::vector<std::vector<double>> sig(k);
  for (int a = 0; a < k; ++a) sig[a] = signature(p, a);
  form.order.resize(k);
  std::iota(form.order.begin(), form.order.end(), 0);
  std::stable_sort(form.order.begin(), form.order.end(), [&](int a, int b) { return sig[a] < sig[b]; });
  const CubeProblem c = reorder_clusters(p, form.order);
  append(form.key, &c.dims, 1);
  append(form.key, c.capacity.data(), c.capacity.size());
  append(form.key, c.vertex_size.data(), c.vertex_size.size());
  append(form.key, c.cluster_size.data(), c.cluster_size.size());
  append(form.key, c.traffic.data(), c.traffic.size());
  return form;
}

CubeProblem reorder_clusters(const CubeProblem& p, const std::vector<int>& order) {
  CubeProblem c = p;
  const int k = p.num_clusters();
  for (int i = 0; i < k; ++i) {
    c.cluster_size[i] = p.cluster_size[order[i]];
    for (int j = 0; j < k; ++j) c.traffic[static_cast<std::size_t>(i) * k + j] = p.weight(order[i], order[j]);
  }
  return c;
}

CubePlacement CubeSolver::solve_one(const CubeProblem& canonical, bool& milp_skipped) const {
  const std::vector<int> start = ordered_placement(canonical);
  CubeSearchOptions search = options_.search;
  search.deadline = options_.deadline;
  CubePlacement best = search_cube(canonical, start, search);
  if (!options_.use_milp || canonical.dims == 0 || cube_milp_columns(canonical) > options_.max_milp_columns) return best;
  CubeMilpOptions milp = options_.milp;
  if (options_.deadline) {
    const double seconds_left = options_.deadline->remaining_ms() / 1000;
    milp_skipped = seconds_left <= 0;
    if (milp_skipped) return best;
    milp.max_seconds = std::min(milp.max_seconds, seconds_left);
  }
  return solve_cube_milp(canonical, best.vertex_of, milp);
}

std::vector<CubePlacement> CubeSolver::solve_all(const std::vector<CubeProblem>& problems,
                                                 const std::function<void(std::size_t, std::size_t)>& report) {
  std::vector<CanonicalForm> forms;
  forms.reserve(problems.size());
  std::vector<std::size_t> to_solve;  // one problem index per new canonical key
  std::unordered_map<std::string, std::size_t> first_of_key;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    check_cube_problem(problems[i]);
    forms.push_back(canonical_form(problems[i]));
    if (!cache_.count(forms[i].key) && first_of_key.emplace(forms[i].key, i).second) to_solve.push_back(i);
  }
  std::vector<CubePlacement> solved(to_solve.size());
  std::vector<char> skipped(to_solve.size(), 0);
  mapping::detail::parallel_for(
      to_solve.size(), options_.threads,
      [&](std::size_t j, int) {
        const std::size_t i = to_solve[j];
        bool milp_skipped = false;
        solved[j] = solve_one(reorder_clusters(problems[i], forms[i].order), milp_skipped);
        skipped[j] = milp_skipped;
      },
      [&](std::size_t done) {
        if (report) report(done, to_solve.size());
      });
  for (std::size_t j = 0; j < to_solve.size(); ++j) {
    stats_.proven += solved[j].proven_optimal;
    stats_.milp_skipped += skipped[j];
    const CubeProblem& p = problems[to_solve[j]];
    stats_.too_large += options_.use_milp && p.dims > 0 && cube_milp_columns(p) > options_.max_milp_columns;
    cache_.emplace(forms[to_solve[j]].key, std::move(solved[j]));
  }
  stats_.problems += static_cast<int>(problems.size());
  stats_.solved += static_cast<int>(to_solve.size());
  std::vector<CubePlacement> result(problems.size());
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const CubePlacement& canonical = cache_.at(forms[i].key);
    result[i] = canonical;
    for (std::size_t c = 0; c < forms[i].order.size(); ++c) result[i].vertex_of[forms[i].order[c]] = canonical.vertex_of[c];
  }
  return result;
}

}  // namespace rankmap::rahtm
