// The cube mapping MILP: model construction, symmetry breaking, and the CBC branch-and-cut call.
//
// CBC is driven through its C++ classes (OsiClpSolverInterface + CbcModel::branchAndBound) rather
// than Cbc_C_Interface.h: the C interface of CBC 2.10 runs CbcMain1, whose static state makes
// concurrent solves unsafe (coin-or/Cbc#332), while RAHTM solves independent MILPs on several
// threads; the C++ classes also take a MIP start and report the proven bound directly.
#include "cube_milp.hpp"

#include "cube_search.hpp"

#include <CbcHeuristic.hpp>
#include <CbcHeuristicLocal.hpp>
#include <CbcModel.hpp>
#include <CglClique.hpp>
#include <CglFlowCover.hpp>
#include <CglGomory.hpp>
#include <CglKnapsackCover.hpp>
#include <CglMixedIntegerRounding2.hpp>
#include <CglProbing.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

namespace rankmap::rahtm {

namespace {

struct Pair {
  int a, b;
};

/// The column layout and the sparse matrix of one MILP instance.
class CubeMilpModel {
 public:
  CubeMilpModel(const CubeProblem& p, std::vector<int> active) : p_(p), active_(std::move(active)) {
    const int k = p.num_clusters();
    index_in_active_.assign(k, -1);
    for (int i = 0; i < static_cast<int>(active_.size()); ++i) index_in_active_[active_[i]] = i;
    for (int i = 0; i < static_cast<int>(active_.size()); ++i)
      for (int j = i + 1; j < static_cast<int>(active_.size()); ++j)
        if (p.weight(active_[i], active_[j]) > 0 || p.weight(active_[j], active_[i]) > 0)
          pairs_.push_back({active_[i], active_[j]});
    scale_ = *std::max_element(p.traffic.begin(), p.traffic.end());
    build_columns();
  }

  int num_columns() const { return static_cast<int>(col_lower_.size()); }
  int l_column() const { return num_columns() - 1; }
  double scale() const { return scale_; }

  /// Restricts cluster `a` to the vertices `allowed` returns true for.
  template <typename Allowed>
  void restrict(int a, Allowed allowed) {
    const int i = index_in_active_[a];
    for (int v = 0; v < p_.num_vertices(); ++v)
      if (x_col_[i][v] >= 0 && !allowed(v)) col_upper_[x_col_[i][v]] = 0;
  }

  /// The full column vector of an integer placement of the active clusters.
  std::vector<double> solution_of(std::span<const int> vertex_of) const {
    std::vector<double> sol(num_columns(), 0.0);
    for (std::size_t i = 0; i < active_.size(); ++i) sol[x_col_[i][vertex_of[active_[i]]]] = 1;
    for (std::size_t q = 0; q < pairs_.size(); ++q) sol[z_col(q, vertex_of[pairs_[q].a], vertex_of[pairs_[q].b])] = 1;
    sol[l_column()] = cube_mcl(p_, vertex_of) / scale_;
    return sol;
  }

  /// Loads the model into `solver`.
  void load(OsiClpSolverInterface& solver) const {
    std::vector<int> rows, cols;
    std::vector<double> values, row_lower, row_upper;
    auto add = [&](int r, int c, double v) { rows.push_back(r), cols.push_back(c), values.push_back(v); };
    int r = 0;
    for (std::size_t i = 0; i < active_.size(); ++i, ++r) {  // every active cluster on one vertex
      for (int c : x_col_[i])
        if (c >= 0) add(r, c, 1);
      row_lower.push_back(1), row_upper.push_back(1);
    }
    for (int v = 0; v < p_.num_vertices(); ++v, ++r) {  // at most one cluster per vertex
      for (std::size_t i = 0; i < active_.size(); ++i)
        if (x_col_[i][v] >= 0) add(r, x_col_[i][v], 1);
      row_lower.push_back(-COIN_DBL_MAX), row_upper.push_back(1);
    }
    const int n = p_.num_vertices();
    for (std::size_t q = 0; q < pairs_.size(); ++q) {  // z links to both x
      const auto& xa = x_col_[index_in_active_[pairs_[q].a]];
      const auto& xb = x_col_[index_in_active_[pairs_[q].b]];
      for (int u = 0; u < n; ++u, ++r) {
        for (int v = 0; v < n; ++v)
          if (z_col(q, u, v) >= 0) add(r, z_col(q, u, v), 1);
        if (xa[u] >= 0) add(r, xa[u], -1);
        row_lower.push_back(0), row_upper.push_back(0);
      }
      for (int v = 0; v < n; ++v, ++r) {
        for (int u = 0; u < n; ++u)
          if (z_col(q, u, v) >= 0) add(r, z_col(q, u, v), 1);
        if (xb[v] >= 0) add(r, xb[v], -1);
        row_lower.push_back(0), row_upper.push_back(0);
      }
    }
    add_channel_rows(r, add, row_lower, row_upper);
    add_vertex_rows(r, add, row_lower, row_upper);
    const CoinPackedMatrix matrix(true, rows.data(), cols.data(), values.data(), static_cast<CoinBigIndex>(values.size()));
    std::vector<double> objective(num_columns(), 0.0);
    objective[l_column()] = 1;
    solver.loadProblem(matrix, col_lower_.data(), col_upper_.data(), objective.data(), row_lower.data(),
                       row_upper.data());
    for (const auto& cols_of_cluster : x_col_)
      for (int c : cols_of_cluster)
        if (c >= 0) solver.setInteger(c);
  }

  /// vertex_of for the active clusters read from a column vector.
  void read(const double* sol, std::vector<int>& vertex_of) const {
    for (std::size_t i = 0; i < active_.size(); ++i)
      for (int v = 0; v < p_.num_vertices(); ++v)
        if (x_col_[i][v] >= 0 && sol[x_col_[i][v]] > 0.5) vertex_of[active_[i]] = v;
  }

 private:
  void build_columns() {
    const int n = p_.num_vertices();
    x_col_.assign(active_.size(), std::vector<int>(n, -1));
    for (std::size_t i = 0; i < active_.size(); ++i)
      for (int v = 0; v < n; ++v)
        if (p_.compatible(active_[i], v)) x_col_[i][v] = new_column(0, 1);
    z_base_.resize(pairs_.size());
    for (std::size_t q = 0; q < pairs_.size(); ++q) {
      z_base_[q] = num_columns();
      for (int u = 0; u < n; ++u)
        for (int v = 0; v < n; ++v) new_column(0, z_allowed(q, u, v) ? 1 : 0);
    }
    // L is at least what any single cluster sends or receives, spread over its vertex's channels.
    double bound = 0;
    for (int a : active_) {
      double out = 0, in = 0;
      for (int b = 0; b < p_.num_clusters(); ++b) out += p_.weight(a, b), in += p_.weight(b, a);
      bound = std::max(bound, std::max(out, in) / max_vertex_capacity());
    }
    new_column(bound / scale_ * (1 - 1e-9), COIN_DBL_MAX);
  }

  bool z_allowed(std::size_t q, int u, int v) const {
    return u != v && p_.compatible(pairs_[q].a, u) && p_.compatible(pairs_[q].b, v);
  }
  int z_col(std::size_t q, int u, int v) const {
    return z_allowed(q, u, v) ? z_base_[q] + u * p_.num_vertices() + v : -1;
  }
  int new_column(double lower, double upper) {
    col_lower_.push_back(lower), col_upper_.push_back(upper);
    return num_columns() - 1;
  }
  double max_vertex_capacity() const {
    double best = 0;
    for (int u = 0; u < p_.num_vertices(); ++u) {
      double out = 0;
      for (int i = 0; i < p_.dims; ++i) out += p_.capacity[u * p_.dims + i];
      best = std::max(best, out);
    }
    return best;
  }

  // load(c) - cap(c) * L <= 0 for every cube channel, in units of the heaviest traffic entry.
  template <typename Add>
  void add_channel_rows(int& r, Add& add, std::vector<double>& lower, std::vector<double>& upper) const {
    const int n = p_.num_vertices();
    const int first = r;
    for (int c = 0; c < p_.num_channels(); ++c, ++r) {
      add(r, l_column(), -1);
      lower.push_back(-COIN_DBL_MAX), upper.push_back(0);
    }
    std::vector<double> coef(p_.num_channels(), 0.0);
    for (std::size_t q = 0; q < pairs_.size(); ++q) {
      const double w_ab = p_.weight(pairs_[q].a, pairs_[q].b) / scale_;
      const double w_ba = p_.weight(pairs_[q].b, pairs_[q].a) / scale_;
      for (int u = 0; u < n; ++u)
        for (int v = 0; v < n; ++v) {
          if (z_col(q, u, v) < 0) continue;
          for (const CubeShare& s : cube_route(p_.dims, u, v)) coef[s.channel] += w_ab * s.fraction;
          for (const CubeShare& s : cube_route(p_.dims, v, u)) coef[s.channel] += w_ba * s.fraction;
          for (int c = 0; c < p_.num_channels(); ++c)
            if (coef[c] != 0) add(first + c, z_col(q, u, v), coef[c] / p_.capacity[c]), coef[c] = 0;
        }
    }
  }

  // What a vertex's cluster sends (receives) must leave (enter) through that vertex's channels.
  template <typename Add>
  void add_vertex_rows(int& r, Add& add, std::vector<double>& lower, std::vector<double>& upper) const {
    for (int direction = 0; direction < 2; ++direction)
      for (int u = 0; u < p_.num_vertices(); ++u, ++r) {
        double capacity = 0;
        for (int i = 0; i < p_.dims; ++i)
          capacity += p_.capacity[(direction == 0 ? u : u ^ (1 << i)) * p_.dims + i];
        for (std::size_t i = 0; i < active_.size(); ++i) {
          if (x_col_[i][u] < 0) continue;
          double bytes = 0;
          for (int b = 0; b < p_.num_clusters(); ++b)
            bytes += direction == 0 ? p_.weight(active_[i], b) : p_.weight(b, active_[i]);
          if (bytes > 0) add(r, x_col_[i][u], bytes / scale_);
        }
        add(r, l_column(), -capacity);
        lower.push_back(-COIN_DBL_MAX), upper.push_back(0);
      }
  }

  const CubeProblem& p_;
  std::vector<int> active_;
  std::vector<int> index_in_active_;
  std::vector<Pair> pairs_;
  double scale_ = 1;
  std::vector<std::vector<int>> x_col_;
  std::vector<int> z_base_;
  std::vector<double> col_lower_, col_upper_;
};

std::vector<int> active_clusters(const CubeProblem& p) {
  std::vector<int> active;
  for (int a = 0; a < p.num_clusters(); ++a)
    for (int b = 0; b < p.num_clusters(); ++b)
      if (a != b && (p.weight(a, b) > 0 || p.weight(b, a) > 0)) {
        active.push_back(a);
        break;
      }
  return active;
}

/// Dimension classes of equal capacity; permuting dimensions within a class is a symmetry.
std::vector<int> dimension_class(const CubeProblem& p) {
  std::vector<int> cls(p.dims);
  for (int i = 0; i < p.dims; ++i) {
    cls[i] = i;
    for (int j = 0; j < i; ++j)
      if (p.capacity[j] == p.capacity[i]) {
        cls[i] = cls[j];
        break;
      }
  }
  return cls;
}

/// True if, within each class, the set bits of v are the lowest dimensions of the class.
bool is_orbit_representative(int v, const std::vector<int>& cls) {
  for (std::size_t i = 0; i < cls.size(); ++i)
    if (!(v >> i & 1))
      for (std::size_t j = i + 1; j < cls.size(); ++j)
        if (cls[j] == cls[i] && (v >> j & 1)) return false;
  return true;
}

/// Moves a placement by a symmetry so that `a0` is on 0 and `a1` on an orbit representative.
void canonicalise(std::vector<int>& vertex_of, int a0, int a1, const std::vector<int>& cls) {
  const int shift = vertex_of[a0];
  for (int& v : vertex_of) v ^= shift;
  const int dims = static_cast<int>(cls.size());
  std::vector<int> target(dims);  // dimension i moves to target[i]
  for (int c = 0; c < dims; ++c) {
    std::vector<int> members, set_first;
    for (int i = 0; i < dims; ++i)
      if (cls[i] == c) members.push_back(i);
    for (int i : members)
      if (vertex_of[a1] >> i & 1) set_first.push_back(i);
    for (int i : members)
      if (!(vertex_of[a1] >> i & 1)) set_first.push_back(i);
    for (std::size_t m = 0; m < members.size(); ++m) target[set_first[m]] = members[m];
  }
  for (int& v : vertex_of) {
    int moved = 0;
    for (int i = 0; i < dims; ++i)
      if (v >> i & 1) moved |= 1 << target[i];
    v = moved;
  }
}

double total_traffic(const CubeProblem& p, int a) {
  double t = 0;
  for (int b = 0; b < p.num_clusters(); ++b) t += p.weight(a, b) + p.weight(b, a);
  return t;
}

void run_cbc(const CubeMilpModel& model_data, const std::vector<double>& start, const CubeMilpOptions& options,
             std::vector<double>& solution, bool& proven) {
  OsiClpSolverInterface solver;
  solver.messageHandler()->setLogLevel(0);
  model_data.load(solver);
  CbcModel model(solver);
  model.setLogLevel(0);
  model.messageHandler()->setLogLevel(0);
  model.solver()->messageHandler()->setLogLevel(0);
  CglProbing probing;
  probing.setUsingObjective(1);
  probing.setMaxPass(1);
  probing.setMaxPassRoot(3);
  probing.setMaxProbe(10);
  probing.setMaxLook(10);
  probing.setRowCuts(3);
  CglGomory gomory;
  gomory.setLimit(300);
  CglKnapsackCover knapsack;
  CglClique clique;
  clique.setStarCliqueReport(false);
  clique.setRowCliqueReport(false);
  CglMixedIntegerRounding2 mir;
  CglFlowCover flow;
  model.addCutGenerator(&probing, -1, "Probing");
  model.addCutGenerator(&gomory, -1, "Gomory");
  model.addCutGenerator(&knapsack, -1, "Knapsack");
  model.addCutGenerator(&clique, -1, "Clique");
  model.addCutGenerator(&mir, -1, "MIR");
  model.addCutGenerator(&flow, -1, "FlowCover");
  CbcRounding rounding(model);
  model.addHeuristic(&rounding);
  CbcHeuristicLocal local(model);
  model.addHeuristic(&local);
  model.setMaximumNodes(options.max_nodes);
  // Wall-clock seconds, which is what a time budget limits: counting CPU time (CBC's default), a
  // MILP given 0.36 s took 1.5 s on a loaded machine.
  model.setMaximumSeconds(options.max_seconds);
  model.setUseElapsedTime(true);
  model.setBestSolution(start.data(), static_cast<int>(start.size()), start.back(), true);
  model.branchAndBound();
  proven = model.isProvenOptimal() && !model.isNodeLimitReached() && !model.isSecondsLimitReached();
  solution.assign(start.begin(), start.end());
  if (const double* best = model.bestSolution()) solution.assign(best, best + start.size());
}

}  // namespace

std::int64_t cube_milp_columns(const CubeProblem& problem) {
  const std::vector<int> active = active_clusters(problem);
  auto vertices_for = [&](int a) {
    std::int64_t n = 0;
    for (int v = 0; v < problem.num_vertices(); ++v) n += problem.compatible(a, v);
    return n;
  };
  std::int64_t columns = 1;
  for (std::size_t i = 0; i < active.size(); ++i) {
    columns += vertices_for(active[i]);
    for (std::size_t j = i + 1; j < active.size(); ++j)
      if (problem.weight(active[i], active[j]) > 0 || problem.weight(active[j], active[i]) > 0)
        columns += vertices_for(active[i]) * vertices_for(active[j]);
  }
  return columns;
}

CubePlacement solve_cube_milp(const CubeProblem& problem, std::span<const int> incumbent,
                              const CubeMilpOptions& options) {
  check_cube_problem(problem);
  CubePlacement result;
  result.vertex_of.assign(incumbent.begin(), incumbent.end());
  const std::vector<int> active = active_clusters(problem);
  if (active.size() < 2) {
    result.proven_optimal = true;
    return result;
  }
  CubeMilpModel model(problem, active);
  std::vector<int> start(incumbent.begin(), incumbent.end());
  if (is_vertex_transitive(problem) && problem.dims > 0) {
    const int a0 = *std::max_element(active.begin(), active.end(), [&](int x, int y) {
      return total_traffic(problem, x) < total_traffic(problem, y);
    });
    int a1 = -1;
    for (int b : active)
      if (b != a0 && (a1 < 0 || problem.weight(a0, b) + problem.weight(b, a0) >
                                    problem.weight(a0, a1) + problem.weight(a1, a0)))
        a1 = b;
    const std::vector<int> cls = dimension_class(problem);
    canonicalise(start, a0, a1, cls);
    model.restrict(a0, [](int v) { return v == 0; });
    model.restrict(a1, [&](int v) { return is_orbit_representative(v, cls); });
  }
  std::vector<double> solution;
  run_cbc(model, model.solution_of(start), options, solution, result.proven_optimal);
  model.read(solution.data(), start);
  // Clusters without traffic take the vertices left over, in order.
  std::vector<bool> used(problem.num_vertices(), false);
  for (int a : active) used[start[a]] = true;
  std::vector<bool> is_active(problem.num_clusters(), false);
  for (int a : active) is_active[a] = true;
  for (int a = 0; a < problem.num_clusters(); ++a) {
    if (is_active[a]) continue;
    for (int v = 0; v < problem.num_vertices(); ++v)
      if (!used[v] && problem.compatible(a, v)) {
        start[a] = v, used[v] = true;
        break;
      }
  }
  result.vertex_of = start;
  result.mcl = cube_mcl(problem, result.vertex_of);
  const double incumbent_mcl = cube_mcl(problem, incumbent);
  if (incumbent_mcl < result.mcl) result.vertex_of.assign(incumbent.begin(), incumbent.end()), result.mcl = incumbent_mcl;
  return result;
}

}  // namespace rankmap::rahtm
