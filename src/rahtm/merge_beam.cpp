// Beam search over child orientations with incremental channel loads.
//
// Scoring a candidate (partial solution s, orientation g of the next child) adds to s's loads
// the child's internal traffic under g, precomputed once per orientation, and routes only the
// flows between the child and the children already placed.
#include "merge_beam.hpp"
#include "mapping/parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace rankmap::rahtm {

namespace {

/// Flows routed between two looks at the deadline where a loop routes every flow of a block.
constexpr std::size_t kFlowsPerDeadlineCheck = 1024;

/// A load on one channel: bytes per capacity, or load per byte for a route.
struct Load {
  ChannelId channel;
  double value;
};

/// Where a route sits in a RouteCache's store.
struct RouteRef {
  std::uint32_t begin, size;
};

/// Routes of node pairs already seen (as loads per byte): the beam routes the same pairs often.
class RouteCache {
 public:
  std::span<const Load> get(const topology::RoutingModel& routing, NodeId src, NodeId dst) {
    if (const auto ref = locate(routing, src, dst)) return at(*ref);
    return overflow_;
  }

  /// The route's place in the store; nullopt when the store is full (the route is then in the
  /// overflow buffer until the next call).
  std::optional<RouteRef> locate(const topology::RoutingModel& routing, NodeId src, NodeId dst) {
    const auto nodes = static_cast<std::uint64_t>(routing.grid().num_nodes());
    const std::uint64_t key = static_cast<std::uint64_t>(src) * nodes + static_cast<std::uint64_t>(dst);
    // Small grids index every node pair directly: the hash lookup was a tenth of a merge's time.
    // The index is allocated one source node's row at a time, when first used: a merge of a few
    // children touches few rows, and writing the whole table (8 MB at 1,024 nodes) took 50 ms.
    const bool dense = nodes * nodes <= kMaxDensePairs;
    if (dense && dense_.empty()) dense_.resize(nodes);
    std::vector<RouteRef>* row = dense ? &dense_[static_cast<std::size_t>(src)] : nullptr;
    if (row && row->empty()) row->assign(nodes, kAbsent);
    if (row && (*row)[static_cast<std::size_t>(dst)].size != kAbsent.size) return (*row)[static_cast<std::size_t>(dst)];
    if (!dense)
      if (auto it = index_.find(key); it != index_.end()) return it->second;
    shares_.clear();
    if (src != dst) routing.route(src, dst, shares_);
    const topology::Grid& grid = routing.grid();
    if (pool_.capacity() == 0) pool_.reserve(kMaxEntries);  // address space only: pages come as used
    const bool keep = pool_.size() + shares_.size() <= kMaxEntries;
    std::vector<Load>& out = keep ? pool_ : overflow_;
    if (!keep) overflow_.clear();
    const RouteRef ref{static_cast<std::uint32_t>(out.size()), static_cast<std::uint32_t>(shares_.size())};
    for (const auto& share : shares_)
      out.push_back({share.channel, share.fraction / grid.capacity(grid.channel_dim(share.channel))});
    if (!keep) return std::nullopt;
    if (row)
      (*row)[static_cast<std::size_t>(dst)] = ref;
    else
      index_.emplace(key, ref);
    return ref;
  }

  std::span<const Load> at(RouteRef ref) const { return {pool_.data() + ref.begin, ref.size}; }

 private:
  static constexpr std::size_t kMaxEntries = std::size_t{1} << 23;  // 128 MiB per cache at most
  static constexpr std::uint64_t kMaxDensePairs = std::uint64_t{1} << 20;  // 8 MiB of RouteRef
  static constexpr RouteRef kAbsent{0, ~std::uint32_t{0}};
  std::vector<std::vector<RouteRef>> dense_;  ///< per source node, then per destination
  std::unordered_map<std::uint64_t, RouteRef> index_;
  std::vector<Load> pool_, overflow_;
  std::vector<topology::ChannelShare> shares_;
};

/// Dense route tables for the child pairs that exchange traffic: every (cell, cell) pair of
/// the two boxes, so that scoring a candidate never searches a hash table. The routes live in
/// `store`, which outlives one merge (the same node pairs recur at every level and in every
/// hierarchy) and is not written while candidates are scored. Tables stop being made once
/// `deadline` (if given) has passed: at the root of 16,384 tasks on 8x8x8 they took seconds.
class RouteTables {
 public:
  RouteTables(const std::vector<MergeChild>& children, const std::vector<MergeFlow>& flows,
              const topology::RoutingModel& routing, RouteCache& store, const mapping::Deadline* deadline)
      : m_(static_cast<int>(children.size())), table_of_pair_(static_cast<std::size_t>(m_) * m_, -1), store_(store) {
    std::size_t budget = kMaxCells;
    for (const MergeFlow& f : flows) {
      int& table = table_of_pair_[static_cast<std::size_t>(f.src_child) * m_ + f.dst_child];
      if (table >= 0) continue;
      const MergeChild& s = children[f.src_child];
      const MergeChild& d = children[f.dst_child];
      const std::size_t cells = s.node_of_cell.size() * d.node_of_cell.size();
      if (cells > kMaxTableCells || cells > budget) continue;
      std::vector<RouteRef> refs;
      refs.reserve(cells);
      for (NodeId src : s.node_of_cell) {
        if (deadline && deadline->passed()) return;  // the remaining pairs use the workers' caches
        for (NodeId dst : d.node_of_cell)
          if (const auto ref = store.locate(routing, src, dst)) refs.push_back(*ref);
      }
      if (refs.size() < cells) return;  // the store is full: the remaining pairs use the workers' caches
      budget -= cells;
      table = static_cast<int>(routes_.size());
      routes_.push_back(std::move(refs));
      dst_cells_.push_back(static_cast<int>(d.node_of_cell.size()));
    }
  }

  /// The route between two cells, or nullopt when the pair of children has no table.
  std::optional<std::span<const Load>> get(int src_child, int src_cell, int dst_child, int dst_cell) const {
    const int table = table_of_pair_[static_cast<std::size_t>(src_child) * m_ + dst_child];
    if (table < 0) return std::nullopt;
    return store_.at(routes_[table][static_cast<std::size_t>(src_cell) * dst_cells_[table] + dst_cell]);
  }

 private:
  // Small boxes only: a table of two 256-node boxes would hold long routes for 65,536 pairs.
  static constexpr std::size_t kMaxTableCells = 4096;
  static constexpr std::size_t kMaxCells = std::size_t{1} << 20;  // cell pairs over all tables
  int m_;
  std::vector<int> table_of_pair_;
  std::vector<std::vector<RouteRef>> routes_;  // per table: (src cell, dst cell) -> route
  std::vector<int> dst_cells_;
  const RouteCache& store_;
};

/// One worker's accumulation of extra loads, each touched channel listed once.
struct Scratch {
  std::vector<double> delta;
  std::vector<char> mark;
  std::vector<ChannelId> touched;
  RouteCache routes;

  explicit Scratch(std::size_t channels) : delta(channels, 0.0), mark(channels, 0) {}
  void add(ChannelId c, double v) {
    if (!mark[c]) mark[c] = 1, touched.push_back(c);
    delta[c] += v;
  }
  void clear() {
    for (ChannelId c : touched) delta[c] = 0, mark[c] = 0;
    touched.clear();
  }
};

}  // namespace

struct BeamWorkspace::Impl {
  const topology::RoutingModel* routing = nullptr;
  std::vector<Scratch> scratch;  // one per worker, route caches included
  RouteCache table_routes;

  /// Scratch for `threads` workers of `routing`; the route caches are kept if the routing is the same.
  std::vector<Scratch>& scratch_for(const topology::RoutingModel& of, int threads) {
    if (routing != &of) scratch.clear(), table_routes = RouteCache(), routing = &of;
    while (static_cast<int>(scratch.size()) < std::max(1, threads))
      scratch.emplace_back(static_cast<std::size_t>(of.grid().num_channel_slots()));
    return scratch;
  }
};

BeamWorkspace::BeamWorkspace() : impl_(std::make_unique<Impl>()) {}
BeamWorkspace::~BeamWorkspace() = default;

namespace {

struct Score {
  double mcl = 0;
  double sumsq = 0;
};

struct State {
  std::vector<int> orientation;  // per child, -1 until placed
  std::vector<double> loads;
  Score score;
  std::uint64_t hash = 0;  // sum of mix(channel, load): equal load vectors hash equal
};

struct Candidate {
  Score score;
  int state, orientation;
};

std::uint64_t mix(ChannelId c, double load) {
  if (load == 0) return 0;
  std::uint64_t x = static_cast<std::uint64_t>(c) * 0x9e3779b97f4a7c15ULL ^ std::bit_cast<std::uint64_t>(load);
  x ^= x >> 30, x *= 0xbf58476d1ce4e5b9ULL, x ^= x >> 27, x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

bool lower(const Score& a, const Score& b) { return a.mcl < b.mcl || (a.mcl == b.mcl && a.sumsq < b.sumsq); }

bool ranks_before(const Candidate& a, const Candidate& b) {
  if (lower(a.score, b.score) || lower(b.score, a.score)) return lower(a.score, b.score);
  return a.state != b.state ? a.state < b.state : a.orientation < b.orientation;
}

class BeamSearch {
 public:
  BeamSearch(const std::vector<MergeChild>& children, const std::vector<MergeFlow>& flows,
             const topology::RoutingModel& routing, const BeamOptions& options, BeamWorkspace::Impl& workspace)
      : children_(children), flows_(flows), routing_(routing), options_(options),
        channels_(static_cast<std::size_t>(routing.grid().num_channel_slots())),
        scratch_(workspace.scratch_for(routing, options.threads)),
        tables_(children, flows, routing, workspace.table_routes, options.deadline) {}

  /// The route of a flow (loads per byte) with its children in the given orientations.
  std::span<const Load> route_of(const MergeFlow& f, int src_orientation, int dst_orientation, Scratch& sc) const {
    const MergeChild& s = children_[f.src_child];
    const MergeChild& d = children_[f.dst_child];
    const int src_cell = s.cell_image[src_orientation][f.src_cell];
    const int dst_cell = d.cell_image[dst_orientation][f.dst_cell];
    const auto tabled = tables_.get(f.src_child, src_cell, f.dst_child, dst_cell);
    return tabled ? *tabled : sc.routes.get(routing_, s.node_of_cell[src_cell], d.node_of_cell[dst_cell]);
  }

  /// Adds a flow's loads, its children in the given orientations.
  void add_flow(const MergeFlow& f, int src_orientation, int dst_orientation, Scratch& sc) const {
    for (const Load& l : route_of(f, src_orientation, dst_orientation, sc)) sc.add(l.channel, f.bytes * l.value);
  }

  /// The score of base + scratch (base empty: zero loads).
  static Score score_of(const std::vector<double>& base, Score score, const Scratch& sc) {
    for (ChannelId c : sc.touched) {
      const double before = base.empty() ? 0.0 : base[c];
      const double after = before + sc.delta[c];
      score.mcl = std::max(score.mcl, after);
      score.sumsq += after * after - before * before;
    }
    return score;
  }

  /// The beam's best, or a cut result if the deadline passed first.
  BeamResult run();
  /// The best of the orientations shared by every child, each applied to all of them; a cut result
  /// if the deadline passed before one was scored.
  BeamResult best_uniform();

 private:
  void step(int child, const std::vector<std::vector<const MergeFlow*>>& owned);
  /// Adds the child's loads in orientation g on top of partial solution st. Stops and returns
  /// false as soon as one channel would exceed `bound`: that candidate cannot be kept.
  bool accumulate(const State& st, int child, int g, Scratch& sc, double bound) const {
    auto over = [&](ChannelId c) { return st.loads[c] + sc.delta[c] > bound; };
    for (const Load& l : intra_[g]) {
      sc.add(l.channel, l.value);
      if (over(l.channel)) return false;
    }
    for (const MergeFlow* f : inter_)
      for (const Load& l : route_of(*f, f->src_child == child ? g : st.orientation[f->src_child],
                                    f->dst_child == child ? g : st.orientation[f->dst_child], sc)) {
        sc.add(l.channel, f->bytes * l.value);
        if (over(l.channel)) return false;
      }
    return true;
  }

  /// What identifies a partial solution: its loads (a sum of per-channel hashes, `hash`), and the
  /// orientation of every child that still has flows to route.
  std::uint64_t key_of(const State& parent, int child, int g, const Scratch& sc, std::uint64_t& hash) const {
    hash = parent.hash;
    for (ChannelId c : sc.touched) hash += mix(c, parent.loads[c] + sc.delta[c]) - mix(c, parent.loads[c]);
    std::uint64_t key = hash;
    for (int c : open_) key = mix(c + 1, (c == child ? g : parent.orientation[c]) + 1.0) ^ (key * 0x100000001b3ULL);
    return key;
  }

  void prepare_step(int child, const std::vector<std::vector<const MergeFlow*>>& owned);
  std::vector<Candidate> score_candidates(int child, std::size_t beam);

  const std::vector<MergeChild>& children_;
  const std::vector<MergeFlow>& flows_;
  const topology::RoutingModel& routing_;
  BeamOptions options_;
  std::size_t channels_;
  std::vector<Scratch>& scratch_;
  RouteTables tables_;
  std::vector<State> states_;
  // The step in progress:
  std::vector<int> tried_;                // orientations of the child to try
  std::vector<std::vector<Load>> intra_;  // its internal loads, per orientation
  std::vector<const MergeFlow*> inter_;   // its flows to placed children, heaviest first
  std::vector<int> open_;                 // placed children (it included) with flows to unplaced ones
  std::atomic<bool> cut_{false};          // the deadline passed while candidates were scored
};

void BeamSearch::prepare_step(int child, const std::vector<std::vector<const MergeFlow*>>& owned) {
  std::vector<const MergeFlow*> internal;
  inter_.clear();
  for (const MergeFlow* f : owned[child]) (f->src_child == f->dst_child ? internal : inter_).push_back(f);
  std::stable_sort(inter_.begin(), inter_.end(), [](const MergeFlow* a, const MergeFlow* b) { return a->bytes > b->bytes; });
  const std::vector<int>& placed = states_[0].orientation;
  const bool leading = std::count(placed.begin(), placed.end(), -1) == static_cast<std::ptrdiff_t>(placed.size());
  const int choices = static_cast<int>(children_[child].cell_image.size());
  tried_.clear();
  for (int g = 0; g < choices; ++g)
    if (!leading || children_[child].lead_choices.empty() || children_[child].lead_choices[g]) tried_.push_back(g);
  intra_.assign(choices, {});
  mapping::detail::parallel_for(tried_.size(), options_.threads, [&](std::size_t j, int worker) {
    const int g = tried_[j];
    Scratch& sc = scratch_[worker];
    for (const MergeFlow* f : internal) add_flow(*f, g, g, sc);
    for (ChannelId c : sc.touched) intra_[g].push_back({c, sc.delta[c]});
    sc.clear();
  });
  open_.clear();
  auto pending = [&](int other) { return other != child && placed[other] < 0; };
  for (int c = 0; c < static_cast<int>(children_.size()); ++c) {
    if (c != child && placed[c] < 0) continue;
    for (const MergeFlow& f : flows_)
      if ((f.src_child == c && f.dst_child != c && pending(f.dst_child)) ||
          (f.dst_child == c && f.src_child != c && pending(f.src_child))) {
        open_.push_back(c);
        break;
      }
  }
}

// The best partial solution (the pilot) tries every orientation of the child; the others try
// only the 2 * beam orientations that rank best on the pilot, since one orientation's fit with
// the children already placed varies little between partial solutions that are all near the
// best (trying all of them made the root merge of 16,384 tasks on 4x4x4x4x2 take 30 minutes).
// Once `beam` distinct candidates of the pilot are known, any other candidate is dropped as
// soon as a channel exceeds the largest of their MCLs: at least `beam` distinct candidates rank
// before it. Candidates not tried or dropped score +inf.
std::vector<Candidate> BeamSearch::score_candidates(int child, std::size_t beam) {
  const std::size_t per_state = tried_.size();
  const double unbounded = std::numeric_limits<double>::infinity();
  std::vector<Candidate> candidates(states_.size() * per_state);
  for (std::size_t k = 0; k < candidates.size(); ++k)
    candidates[k] = {{unbounded, 0}, static_cast<int>(k / per_state), tried_[k % per_state]};
  std::vector<std::uint64_t> pilot_key(per_state);
  auto evaluate = [&](std::size_t k, int worker, double bound) {
    if (cut_ || (options_.deadline && options_.deadline->passed())) {
      cut_ = true;
      return;
    }
    const int s = candidates[k].state, g = candidates[k].orientation;
    Scratch& sc = scratch_[worker];
    if (accumulate(states_[s], child, g, sc, bound)) {
      candidates[k].score = score_of(states_[s].loads, states_[s].score, sc);
      std::uint64_t hash;
      if (s == 0) pilot_key[k] = key_of(states_[s], child, g, sc, hash);
    }
    sc.clear();
  };
  mapping::detail::parallel_for(per_state, options_.threads, [&](std::size_t k, int worker) { evaluate(k, worker, unbounded); });
  std::vector<std::size_t> pilot(per_state);
  for (std::size_t k = 0; k < per_state; ++k) pilot[k] = k;
  std::sort(pilot.begin(), pilot.end(), [&](std::size_t a, std::size_t b) { return ranks_before(candidates[a], candidates[b]); });
  double bound = unbounded;
  std::unordered_set<std::uint64_t> distinct;
  for (std::size_t k : pilot)
    if (distinct.insert(pilot_key[k]).second && distinct.size() == beam) {
      bound = candidates[k].score.mcl;
      break;
    }
  const std::size_t shortlist = std::min(per_state, 2 * beam);
  mapping::detail::parallel_for((states_.size() - 1) * shortlist, options_.threads, [&](std::size_t k, int worker) {
    evaluate((1 + k / shortlist) * per_state + pilot[k % shortlist], worker, bound);
  });
  return candidates;
}

void BeamSearch::step(int child, const std::vector<std::vector<const MergeFlow*>>& owned) {
  prepare_step(child, owned);
  // Loads of every kept state are full channel vectors; keep them within ~256 MiB in all.
  const std::size_t beam =
      std::max<std::size_t>(1, std::min<std::size_t>(options_.beam, (std::size_t{1} << 28) / (channels_ * 8)));
  std::vector<Candidate> candidates = score_candidates(child, beam);
  if (cut_) return;
  std::sort(candidates.begin(), candidates.end(), ranks_before);
  std::vector<State> next;
  std::unordered_set<std::uint64_t> kept;
  Scratch& sc = scratch_[0];
  for (const Candidate& cand : candidates) {
    if (next.size() >= beam || std::isinf(cand.score.mcl)) break;
    const State& parent = states_[cand.state];
    accumulate(parent, child, cand.orientation, sc, std::numeric_limits<double>::infinity());
    std::uint64_t hash;
    if (kept.insert(key_of(parent, child, cand.orientation, sc, hash)).second) {
      State st = parent;
      st.orientation[child] = cand.orientation;
      for (ChannelId c : sc.touched) st.loads[c] += sc.delta[c];
      st.score = cand.score;
      st.hash = hash;
      next.push_back(std::move(st));
    }
    sc.clear();
  }
  states_ = std::move(next);
}

/// merge_order() with the route cache of `sc`.
std::vector<int> order_children(const std::vector<MergeChild>& children, const std::vector<MergeFlow>& flows,
                                const topology::RoutingModel& routing, Scratch& sc) {
  const int m = static_cast<int>(children.size());
  std::map<std::pair<int, int>, std::vector<const MergeFlow*>> between;
  for (const MergeFlow& f : flows)
    if (f.src_child != f.dst_child)
      between[{std::min(f.src_child, f.dst_child), std::max(f.src_child, f.dst_child)}].push_back(&f);
  std::vector<double> average(m, 0.0);
  for (const auto& [pair, list] : between) {
    for (const MergeFlow* f : list)
      for (const Load& l : sc.routes.get(routing, children[f->src_child].node_of_cell[f->src_cell],
                                         children[f->dst_child].node_of_cell[f->dst_cell]))
        sc.add(l.channel, f->bytes * l.value);
    const double pair_mcl = BeamSearch::score_of({}, {}, sc).mcl;
    sc.clear();
    average[pair.first] += pair_mcl / std::max(1, m - 1);
    average[pair.second] += pair_mcl / std::max(1, m - 1);
  }
  std::vector<int> order(m);
  for (int i = 0; i < m; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return average[a] > average[b]; });
  return order;
}

BeamResult BeamSearch::run() {
  const int m = static_cast<int>(children_.size());
  const std::vector<int> order = order_children(children_, flows_, routing_, scratch_.front());
  std::vector<int> position(m);
  for (int k = 0; k < m; ++k) position[order[k]] = k;
  // Each flow is routed when the later of its two children is placed.
  std::vector<std::vector<const MergeFlow*>> owned(m);
  for (const MergeFlow& f : flows_)
    owned[position[f.src_child] > position[f.dst_child] ? f.src_child : f.dst_child].push_back(&f);
  states_.assign(1, State{});
  states_[0].orientation.assign(m, -1);
  states_[0].loads.assign(channels_, 0.0);
  for (int k = 0; k < m; ++k) {
    step(order[k], owned);
    if (cut_) return {std::vector<int>(m, 0), 0, 0, true};
    if (options_.report) options_.report(static_cast<double>(k + 1) / m);
  }
  return {states_.front().orientation, states_.front().score.mcl, states_.front().score.sumsq};
}

// Each orientation routes every flow of the block once, and the deadline is checked between groups
// of flows: at the root of an all-to-all of 500 tasks on scattered nodes the 8 orientations took
// 9 s after the beam search had ended, and RAHTM 14 s of its 7.9.
BeamResult BeamSearch::best_uniform() {
  std::map<int, int> seen;
  for (const MergeChild& c : children_)
    for (int e : c.orientation_index) seen.emplace(e, 0);
  BeamResult best{std::vector<int>(children_.size(), 0), 0, 0, true};
  Scratch& sc = scratch_[0];
  const auto passed = [this] { return options_.deadline && options_.deadline->passed(); };
  for (const auto& [e, unused] : seen) {
    std::vector<int> choice(children_.size(), 0);
    for (std::size_t c = 0; c < children_.size(); ++c) {
      const auto& idx = children_[c].orientation_index;
      const auto it = std::find(idx.begin(), idx.end(), e);
      if (it != idx.end()) choice[c] = static_cast<int>(it - idx.begin());
    }
    for (std::size_t k = 0; k < flows_.size(); ++k) {
      if (k % kFlowsPerDeadlineCheck == 0 && passed()) return sc.clear(), best;
      add_flow(flows_[k], choice[flows_[k].src_child], choice[flows_[k].dst_child], sc);
    }
    const Score score = score_of({}, {}, sc);
    sc.clear();
    if (best.cut || lower(score, {best.mcl, best.sumsq})) best = {choice, score.mcl, score.sumsq};
  }
  return best;
}

}  // namespace

std::vector<int> merge_order(const std::vector<MergeChild>& children, const std::vector<MergeFlow>& flows,
                             const topology::RoutingModel& routing, BeamWorkspace* workspace) {
  if (workspace) return order_children(children, flows, routing, workspace->impl().scratch_for(routing, 1).front());
  Scratch sc(static_cast<std::size_t>(routing.grid().num_channel_slots()));
  return order_children(children, flows, routing, sc);
}

BeamResult merge_children(const std::vector<MergeChild>& children, const std::vector<MergeFlow>& flows,
                          const topology::RoutingModel& routing, const BeamOptions& options) {
  BeamWorkspace local;
  BeamSearch search(children, flows, routing, options, (options.workspace ? *options.workspace : local).impl());
  BeamResult result = search.run();
  if (result.cut) return result;
  const BeamResult uniform = search.best_uniform();
  if (!uniform.cut && lower({uniform.mcl, uniform.sumsq}, {result.mcl, result.sumsq})) result = uniform;
  return result;
}

}  // namespace rankmap::rahtm
