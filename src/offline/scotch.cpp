// scotch: Scotch's static mapping of the symmetrized graph onto the allocation's part of the network.
#include "mapping/greedy_embedding.hpp"
#include "offline/child_process.hpp"
#include "mapping/slot_layout.hpp"

#include <rankmap/mapping/mapping.hpp>

#include <cstdint>
#include <cstdio>
// scotch.h uses FILE and the fixed-width integer types without including their headers.
#include <scotch.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>

namespace rankmap::mapping {

namespace {

using topology::Allocation;
using topology::Grid;

/// Scotch's errors are printed by libscotcherr (it never exits); we name the failed call.
void check(int status, const char* call) {
  if (status != 0) throw InputError(std::string("scotch: ") + call + " failed (Scotch's message is on stderr)");
}

class Arch {
 public:
  Arch() { SCOTCH_archInit(&arch_); }
  ~Arch() { SCOTCH_archExit(&arch_); }
  Arch(const Arch&) = delete;
  Arch& operator=(const Arch&) = delete;
  SCOTCH_Arch* get() { return &arch_; }

 private:
  SCOTCH_Arch arch_;
};

/// A graph in Scotch's compressed form; empty load arrays mean unit loads.
struct GraphArrays {
  std::vector<SCOTCH_Num> vertices{0};  ///< vertex v's edges are edges[vertices[v] .. vertices[v+1])
  std::vector<SCOTCH_Num> loads;
  std::vector<SCOTCH_Num> edges;
  std::vector<SCOTCH_Num> edge_loads;
};

/// A Scotch graph over arrays this object owns (Scotch only borrows them).
class ScotchGraph {
 public:
  explicit ScotchGraph(GraphArrays arrays) : a_(std::move(arrays)) {
    SCOTCH_graphInit(&graph_);
    const auto n = static_cast<SCOTCH_Num>(a_.vertices.size() - 1);
    const auto optional = [](std::vector<SCOTCH_Num>& v) { return v.empty() ? nullptr : v.data(); };
    const int status = SCOTCH_graphBuild(&graph_, 0, n, a_.vertices.data(), a_.vertices.data() + 1, optional(a_.loads),
                                         nullptr, static_cast<SCOTCH_Num>(a_.edges.size()), a_.edges.data(),
                                         optional(a_.edge_loads));
    if (status != 0) SCOTCH_graphExit(&graph_);
    check(status, "SCOTCH_graphBuild");
  }
  ~ScotchGraph() { SCOTCH_graphExit(&graph_); }
  ScotchGraph(const ScotchGraph&) = delete;
  ScotchGraph& operator=(const ScotchGraph&) = delete;
  SCOTCH_Graph* get() { return &graph_; }

 private:
  GraphArrays a_;
  SCOTCH_Graph graph_;
};

/// A Scotch context with one thread and a private random generator seeded from the options' seed,
/// so that the same seed gives the same mapping. More threads would not: Scotch's multithreaded
/// coarsening gave three mappings in three runs of one 1,024-task instance with two threads. One
/// thread also avoids Scotch's default of one per core, which crawls on a loaded machine.
class Context {
 public:
  explicit Context(std::uint64_t seed) {
    check(SCOTCH_contextInit(&context_), "SCOTCH_contextInit");
    const int status = SCOTCH_contextRandomClone(&context_) || SCOTCH_contextThreadSpawn(&context_, 1, nullptr);
    if (status != 0) SCOTCH_contextExit(&context_);
    check(status, "SCOTCH_contextRandomClone/ThreadSpawn");
    SCOTCH_contextRandomSeed(&context_, static_cast<SCOTCH_Num>(seed % INT32_MAX));
  }
  ~Context() { SCOTCH_contextExit(&context_); }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  SCOTCH_Context* get() { return &context_; }

 private:
  SCOTCH_Context context_;
};

/// A graph bound to a context: Scotch runs on it with the context's threads and random generator.
class BoundGraph {
 public:
  BoundGraph(Context& context, ScotchGraph& graph) {
    SCOTCH_graphInit(&bound_);
    const int status = SCOTCH_contextBindGraph(context.get(), graph.get(), &bound_);
    if (status != 0) SCOTCH_graphExit(&bound_);
    check(status, "SCOTCH_contextBindGraph");
  }
  ~BoundGraph() { SCOTCH_graphExit(&bound_); }
  BoundGraph(const BoundGraph&) = delete;
  BoundGraph& operator=(const BoundGraph&) = delete;
  SCOTCH_Graph* get() { return &bound_; }

 private:
  SCOTCH_Graph bound_;
};

class Strategy {
 public:
  Strategy(SCOTCH_Num flags, SCOTCH_Num parts) {
    SCOTCH_stratInit(&strat_);
    check(SCOTCH_stratGraphMapBuild(&strat_, flags, parts, 0.0), "SCOTCH_stratGraphMapBuild");
  }
  ~Strategy() { SCOTCH_stratExit(&strat_); }
  Strategy(const Strategy&) = delete;
  Strategy& operator=(const Strategy&) = delete;
  SCOTCH_Strat* get() { return &strat_; }

 private:
  SCOTCH_Strat strat_;
};

SCOTCH_Num strategy_flags(const std::string& parameter) {
  if (parameter.empty() || parameter == "balance") return SCOTCH_STRATBALANCE;
  if (parameter == "quality") return SCOTCH_STRATQUALITY | SCOTCH_STRATBALANCE;
  if (parameter == "speed") return SCOTCH_STRATSPEED | SCOTCH_STRATBALANCE;
  if (parameter == "default") return SCOTCH_STRATDEFAULT;
  throw InputError("scotch: parameter '" + parameter + "' is not one of balance, quality, speed, default");
}

SCOTCH_Num to_num(std::int64_t value, const char* what) {
  if (value > INT32_MAX) throw InputError(std::string("scotch: too many ") + what + " for Scotch's 32-bit integers");
  return static_cast<SCOTCH_Num>(value);
}

/// The whole grid as a Scotch graph, for grids Scotch has no built-in architecture for.
GraphArrays grid_graph(const Grid& grid) {
  GraphArrays g;
  auto& edges = g.edges;
  for (NodeId node = 0; node < grid.num_nodes(); ++node) {
    for (int d = 0; d < grid.ndims(); ++d) {
      if (grid.extent(d) < 2) continue;
      const NodeId plus = grid.neighbor(node, d, topology::Direction::plus);
      const NodeId minus = grid.neighbor(node, d, topology::Direction::minus);
      if (plus >= 0) edges.push_back(to_num(plus, "grid nodes"));
      if (minus >= 0 && minus != plus) edges.push_back(to_num(minus, "grid nodes"));
    }
    g.vertices.push_back(to_num(static_cast<std::int64_t>(edges.size()), "grid links"));
  }
  return g;
}

/// A fat-tree or dragonfly as Scotch's tree-leaf architecture (SCOTCH_archTleaf): one level per level
/// of node groups with more than one subgroup, from the top, so that Scotch numbers the leaves as the
/// network numbers its nodes. The cost of a level is the mean hop count from node 0 to the nodes whose
/// lowest common group with it is at that level (on a fat-tree exactly twice the switch level; at
/// most 4,096 of those nodes are sampled).
void tree_leaf_architecture(const topology::Network& network, SCOTCH_Arch* arch) {
  std::vector<SCOTCH_Num> sizes, costs;
  for (int level = network.num_levels(); level > 0; --level) {
    const NodeId size = network.level_size(level), below = network.level_size(level - 1);
    if (size == below) continue;
    const NodeId step = std::max<NodeId>(1, (size - below) / 4096);  // a sample on large networks
    double hops = 0, pairs = 0;
    for (NodeId y = below; y < size; y += step) hops += network.hops(0, y), pairs += 1;
    sizes.push_back(to_num(size / below, "subgroups"));
    costs.push_back(std::max<SCOTCH_Num>(1, static_cast<SCOTCH_Num>(std::lround(hops / pairs))));
  }
  check(SCOTCH_archTleaf(arch, static_cast<SCOTCH_Num>(sizes.size()), sizes.data(), costs.data()), "SCOTCH_archTleaf");
}

/// The allocation as a Scotch target architecture.
///
/// A fat-tree or dragonfly is a tree-leaf architecture (tree_leaf_architecture). Built-in torus and mesh architectures number terminals with dimension 0 fastest, so rankmap's
/// dimensions are passed in reverse and a terminal number is rankmap's node id (dimensions of
/// extent 1 change no id and are left out). Scotch's torus takes at most 5 dimensions, and in
/// Scotch 7.0 its mesh of arbitrary dimension (SCOTCH_archMeshX) measures distances as on a torus,
/// so only the 2D and 3D meshes are used. Other grids (mixed torus and mesh, more dimensions) are
/// handed to Scotch as the whole grid's graph (SCOTCH_archBuild2). Either way the allocated nodes
/// are listed in increasing node id, and the mapping's part numbers index that list: with
/// SCOTCH_archSub always, with SCOTCH_archBuild2 because when every grid node is listed it
/// returns node ids, which the sorted full list turns into the same thing.
class Target {
 public:
  explicit Target(const Allocation& alloc) : dense_of_part_(alloc.num_nodes()), part_of_dense_(alloc.num_nodes()) {
    std::iota(dense_of_part_.begin(), dense_of_part_.end(), 0);
    std::sort(dense_of_part_.begin(), dense_of_part_.end(), [&](int a, int b) { return alloc.node(a) < alloc.node(b); });
    std::vector<SCOTCH_Num> nodes(alloc.num_nodes());
    for (int k = 0; k < alloc.num_nodes(); ++k) {
      part_of_dense_[dense_of_part_[k]] = k;
      nodes[k] = to_num(alloc.node(dense_of_part_[k]), "grid nodes");
    }
    const auto count = static_cast<SCOTCH_Num>(nodes.size());
    if (!alloc.network().is_grid()) {
      tree_leaf_architecture(alloc.network(), whole_.get());
      check(SCOTCH_archSub(sub_.get(), whole_.get(), count, nodes.data()), "SCOTCH_archSub");
      return;
    }
    const Grid& grid = alloc.grid();
    std::vector<SCOTCH_Num> extents;
    bool any_torus = false, any_mesh = false;
    for (int d = grid.ndims() - 1; d >= 0; --d) {
      if (grid.extent(d) < 2) continue;
      extents.push_back(grid.extent(d));
      if (grid.extent(d) > 2) (grid.is_torus(d) ? any_torus : any_mesh) = true;
    }
    if (!any_mesh && extents.size() <= 5) {
      check(SCOTCH_archTorusX(whole_.get(), static_cast<SCOTCH_Num>(extents.size()), extents.data()), "SCOTCH_archTorusX");
    } else if (!any_torus && extents.size() <= 3) {
      const SCOTCH_Num y = extents.size() >= 2 ? extents[1] : 1;
      check(extents.size() == 3 ? SCOTCH_archMesh3(whole_.get(), extents[0], y, extents[2])
                                : SCOTCH_archMesh2(whole_.get(), extents[0], y),
            "SCOTCH_archMesh2/3");
    } else {
      grid_graph_ = std::make_unique<ScotchGraph>(grid_graph(grid));
      check(SCOTCH_archBuild2(sub_.get(), grid_graph_->get(), count, nodes.data()), "SCOTCH_archBuild2");
      return;
    }
    check(SCOTCH_archSub(sub_.get(), whole_.get(), count, nodes.data()), "SCOTCH_archSub");
  }
  /// The allocation's dense node index of a part number in Scotch's mapping, and back.
  int dense_node(SCOTCH_Num part) const { return dense_of_part_[part]; }
  SCOTCH_Num part(int dense_node) const { return part_of_dense_[dense_node]; }
  SCOTCH_Arch* get() { return sub_.get(); }

 private:
  std::vector<int> dense_of_part_;
  std::vector<SCOTCH_Num> part_of_dense_;
  std::unique_ptr<ScotchGraph> grid_graph_;
  Arch whole_;  // the sub-architecture refers to it, so it is declared (and outlives) first
  Arch sub_;
};

/// Edge weights become integers: scaled so the heaviest edge is about 2^20 and the total weight
/// times the allocation's diameter stays far below 2^31 (Scotch sums costs in SCOTCH_Num), and
/// every edge with bytes keeps a weight of at least 1.
std::vector<SCOTCH_Num> integer_weights(const graph::CommGraph& sym, int diameter) {
  double heaviest = 0;
  for (TaskId t = 0; t < sym.num_tasks(); ++t)
    for (double w : sym.out_weights(t)) heaviest = std::max(heaviest, w);
  const double total = std::max(sym.total_weight(), 1e-300);
  const double scale = std::min((1 << 20) / std::max(heaviest, 1e-300), 1e9 / (total * std::max(diameter, 1)));
  std::vector<SCOTCH_Num> weights;
  weights.reserve(static_cast<std::size_t>(sym.num_edges()));
  for (TaskId t = 0; t < sym.num_tasks(); ++t)
    for (double w : sym.out_weights(t)) weights.push_back(static_cast<SCOTCH_Num>(std::max(1.0, std::round(w * scale))));
  return weights;
}

/// The tasks plus one filler vertex per node with fewer slots than the fullest node, whose load
/// is the difference; fillers are fixed to their node, so balancing all loads gives every node
/// exactly its slot count. Returns the graph and the initial part table (fillers fixed, tasks -1).
std::pair<GraphArrays, std::vector<SCOTCH_Num>> source_graph(const graph::CommGraph& sym, const Allocation& alloc,
                                                              const Target& target) {
  const TaskId n = sym.num_tasks();
  GraphArrays g;
  g.loads.assign(n, 1);
  std::vector<SCOTCH_Num> parts(n, -1);
  for (TaskId t = 0; t < n; ++t) {
    for (TaskId u : sym.out_neighbors(t)) g.edges.push_back(u);
    g.vertices.push_back(to_num(static_cast<std::int64_t>(g.edges.size()), "edges"));
  }
  g.edge_loads = integer_weights(sym, alloc.network().diameter());
  for (int i = 0; i < alloc.num_nodes(); ++i) {
    const int missing = alloc.max_ppn() - static_cast<int>(alloc.slots_of_node(i).size());
    if (missing == 0) continue;
    g.vertices.push_back(g.vertices.back());
    g.loads.push_back(missing);
    parts.push_back(target.part(i));
  }
  return {std::move(g), std::move(parts)};
}

/// Scotch balances loads within a tolerance; tasks beyond a node's slots move, least attached to
/// their node first, to the node with room where they add the least hop-bytes.
void fit_capacities(const graph::CommGraph& sym, const Allocation& alloc, std::vector<int>& node_of) {
  const topology::Network& network = alloc.network();
  std::vector<int> room = detail::node_slot_counts(alloc);
  for (int node : node_of) --room[node];
  const auto bytes_to = [&](TaskId t, int node) {
    double bytes = 0;
    const auto targets = sym.out_neighbors(t);
    for (std::size_t k = 0; k < targets.size(); ++k) bytes += node_of[targets[k]] == node ? sym.out_weights(t)[k] : 0;
    return bytes;
  };
  std::vector<std::pair<double, TaskId>> evicted;
  for (int i = 0; i < alloc.num_nodes(); ++i) {
    if (room[i] >= 0) continue;
    std::vector<std::pair<double, TaskId>> residents;
    for (TaskId t = 0; t < static_cast<TaskId>(node_of.size()); ++t)
      if (node_of[t] == i) residents.emplace_back(bytes_to(t, i), t);
    std::sort(residents.begin(), residents.end());
    evicted.insert(evicted.end(), residents.begin(), residents.begin() - room[i]);
    room[i] = 0;
  }
  for (const auto& [bytes, t] : evicted) {
    int best = -1;
    double best_cost = 0;
    for (int i = 0; i < alloc.num_nodes(); ++i) {
      if (room[i] == 0) continue;
      double cost = 0;
      const auto targets = sym.out_neighbors(t);
      for (std::size_t k = 0; k < targets.size(); ++k)
        cost += sym.out_weights(t)[k] * network.hops(alloc.node(i), alloc.node(node_of[targets[k]]));
      if (best < 0 || cost < best_cost) best = i, best_cost = cost;
    }
    node_of[t] = best;
    --room[best];
  }
}

/// Scotch's mapping, computed in this process.
Mapping scotch_mapping(const graph::CommGraph& graph, const Allocation& alloc, const MapOptions& options,
                       SCOTCH_Num flags) {
  const TaskId n = graph.num_tasks();
  const graph::CommGraph sym = graph.symmetrized();
  Target target(alloc);
  auto [arrays, parts] = source_graph(sym, alloc, target);
  Context context(options.seed);
  ScotchGraph source(std::move(arrays));
  BoundGraph bound(context, source);
  Strategy strategy(flags, alloc.num_nodes());
  check(SCOTCH_graphMapFixed(bound.get(), target.get(), strategy.get(), parts.data()), "SCOTCH_graphMapFixed");
  std::vector<int> node_of(n);
  for (TaskId t = 0; t < n; ++t) {
    if (parts[t] < 0 || parts[t] >= alloc.num_nodes())
      throw InputError("scotch: Scotch returned part " + std::to_string(parts[t]) + " outside the allocation");
    node_of[t] = target.dense_node(parts[t]);
  }
  fit_capacities(sym, alloc, node_of);
  return detail::slots_from_nodes(alloc, node_of);
}

}  // namespace

/// Scotch cannot be stopped from inside, so under a finite budget it runs in a child process that
/// is killed at the deadline (child_process.hpp); the child does nothing but Scotch's mapping and
/// rankmap's arithmetic around it. The fallback is then what a chain handed over (options.initial)
/// or else the launcher's order: the budget is spent, and any other mapping would take more time.
/// An infinite budget runs Scotch in this process, as nothing would ever stop the child.
Mapping map_scotch(const graph::CommGraph& graph, const Allocation& alloc, const MapOptions& options) {
  const SCOTCH_Num flags = strategy_flags(options.parameter);
  const TaskId n = graph.num_tasks();
  // One node leaves nothing to decide, and Scotch 7.0's SCOTCH_archSub crashes on a single terminal.
  if (alloc.num_nodes() == 1) return identity_mapping(n);
  if (!std::isfinite(options.time_budget_ms)) return scotch_mapping(graph, alloc, options, flags);
  const Deadline deadline(options.time_budget_ms);
  std::optional<Mapping> mapping =
      detail::run_in_child(deadline, [&] { return scotch_mapping(graph, alloc, options, flags); });
  if (mapping) {
    if (static_cast<TaskId>(mapping->size()) != n)
      throw std::runtime_error("scotch: the child process returned " + std::to_string(mapping->size()) +
                               " slots for " + std::to_string(n) + " tasks");
    return std::move(*mapping);
  }
  const bool initial = options.initial != nullptr;
  if (options.choice) {
    char budget[32];
    std::snprintf(budget, sizeof budget, "%.0f", options.time_budget_ms);
    *options.choice = {initial ? "initial" : "identity",
                       std::string("scotch stopped at the deadline (budget ") + budget + " ms); returned " +
                           (initial ? "the initial mapping" : "the launcher's order"),
                       std::nullopt, std::nullopt};
  }
  return initial ? *options.initial : identity_mapping(n);
}

}  // namespace rankmap::mapping
