// Beam search over child orientations with incremental channel loads.
//
// Scoring a candidate (partial solution s, orientation g of the next child) adds to s's loads
// the child's internal traffic under g, precomputed once per orientation, and routes only the
// flows between the child and the children already placed.
#include "merge_beam.hpp"

#include "parallel.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace rankmap::rahtm {

namespace {

/// A load on one channel: bytes per capacity, or load per byte for a route.
struct Load {
  ChannelId channel;
  double value;
};

/// Routes of node pairs already seen (as loads per byte): the beam routes the same pairs often.
class RouteCache {
 public:
  std::span<const Load> get(const topology::RoutingModel& routing, NodeId src, NodeId dst) {
    const std::uint64_t key = static_cast<std::uint64_t>(src) * static_cast<std::uint64_t>(routing.grid().num_nodes()) +
                              static_cast<std::uint64_t>(dst);
    if (auto it = index_.find(key); it != index_.end()) return {pool_.data() + it->second.first, it->second.second};
    shares_.clear();
    routing.route(src, dst, shares_);
    const topology::Grid& grid = routing.grid();
    const bool keep = pool_.size() + shares_.size() <= kMaxEntries;
    std::vector<Load>& out = keep ? pool_ : overflow_;
    if (!keep) overflow_.clear();
    const std::size_t begin = out.size();
    for (const auto& share : shares_)
      out.push_back({share.channel, share.fraction / grid.capacity(grid.channel_dim(share.channel))});
    if (keep) index_.emplace(key, std::pair{static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(shares_.size())});
    return {out.data() + begin, shares_.size()};
  }

 private:
  static constexpr std::size_t kMaxEntries = std::size_t{1} << 23;  // 128 MiB per worker at most
  std::unordered_map<std::uint64_t, std::pair<std::uint32_t, std::uint32_t>> index_;
  std::vector<Load> pool_, overflow_;
  std::vector<topology::ChannelShare> shares_;
};

/// Dense route tables for the child pairs that exchange traffic: every (cell, cell) pair of
/// the two boxes, so that scoring a candidate never searches a hash table.
class RouteTables {
 public:
  RouteTables(const std::vector<MergeChild>& children, const std::vector<MergeFlow>& flows,
              const topology::RoutingModel& routing)
      : m_(static_cast<int>(children.size())), table_of_pair_(static_cast<std::size_t>(m_) * m_, -1) {
    std::size_t budget = kMaxCells;
    std::vector<topology::ChannelShare> shares;
    const topology::Grid& grid = routing.grid();
    for (const MergeFlow& f : flows) {
      int& table = table_of_pair_[static_cast<std::size_t>(f.src_child) * m_ + f.dst_child];
      if (table >= 0) continue;
      const MergeChild& s = children[f.src_child];
      const MergeChild& d = children[f.dst_child];
      const std::size_t cells = s.node_of_cell.size() * d.node_of_cell.size();
      if (cells > kMaxTableCells || cells > budget) continue;
      budget -= cells;
      table = static_cast<int>(begin_.size());
      begin_.emplace_back();
      dst_cells_.push_back(static_cast<int>(d.node_of_cell.size()));
      for (NodeId src : s.node_of_cell)
        for (NodeId dst : d.node_of_cell) {
          begin_.back().push_back(static_cast<std::uint32_t>(pool_.size()));
          shares.clear();
          if (src != dst) routing.route(src, dst, shares);
          for (const auto& share : shares)
            pool_.push_back({share.channel, share.fraction / grid.capacity(grid.channel_dim(share.channel))});
        }
      begin_.back().push_back(static_cast<std::uint32_t>(pool_.size()));
    }
  }

  /// The route between two cells, or nullopt when the pair of children has no table.
  std::optional<std::span<const Load>> get(int src_child, int src_cell, int dst_child, int dst_cell) const {
    const int table = table_of_pair_[static_cast<std::size_t>(src_child) * m_ + dst_child];
    if (table < 0) return std::nullopt;
    const std::size_t k = static_cast<std::size_t>(src_cell) * dst_cells_[table] + dst_cell;
    const auto& b = begin_[table];
    return std::span<const Load>(pool_.data() + b[k], b[k + 1] - b[k]);
  }

 private:
  // Small boxes only: a table of two 256-node boxes would hold long routes for 65,536 pairs.
  static constexpr std::size_t kMaxTableCells = 4096;
  static constexpr std::size_t kMaxCells = std::size_t{1} << 20;  // cell pairs over all tables
  int m_;
  std::vector<int> table_of_pair_;
  std::vector<std::vector<std::uint32_t>> begin_;
  std::vector<int> dst_cells_;
  std::vector<Load> pool_;
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
             const topology::RoutingModel& routing, const BeamOptions& options)
      : children_(children), flows_(flows), routing_(routing), options_(options),
        channels_(static_cast<std::size_t>(routing.grid().num_channel_slots())), tables_(children, flows, routing) {
    for (int w = 0; w < std::max(1, options.threads); ++w) scratch_.emplace_back(channels_);
  }

  /// Adds a flow's loads, its children in the given orientations.
  void add_flow(const MergeFlow& f, int src_orientation, int dst_orientation, Scratch& sc) const {
    const MergeChild& s = children_[f.src_child];
    const MergeChild& d = children_[f.dst_child];
    const int src_cell = s.cell_image[src_orientation][f.src_cell];
    const int dst_cell = d.cell_image[dst_orientation][f.dst_cell];
    const auto tabled = tables_.get(f.src_child, src_cell, f.dst_child, dst_cell);
    const auto route = tabled ? *tabled : sc.routes.get(routing_, s.node_of_cell[src_cell], d.node_of_cell[dst_cell]);
    for (const Load& l : route) sc.add(l.channel, f.bytes * l.value);
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

  BeamResult run();
  BeamResult best_uniform();

 private:
  void step(int child, const std::vector<std::vector<const MergeFlow*>>& owned);
  void accumulate(const State& st, int child, int g, const std::vector<const MergeFlow*>& inter, Scratch& sc) const {
    for (const Load& l : intra_[g]) sc.add(l.channel, l.value);
    for (const MergeFlow* f : inter)
      add_flow(*f, f->src_child == child ? g : st.orientation[f->src_child],
               f->dst_child == child ? g : st.orientation[f->dst_child], sc);
  }

  const std::vector<MergeChild>& children_;
  const std::vector<MergeFlow>& flows_;
  const topology::RoutingModel& routing_;
  BeamOptions options_;
  std::size_t channels_;
  RouteTables tables_;
  std::vector<Scratch> scratch_;
  std::vector<State> states_;
  std::vector<std::vector<Load>> intra_;  // the current child's internal loads, per orientation
};

void BeamSearch::step(int child, const std::vector<std::vector<const MergeFlow*>>& owned) {
  std::vector<const MergeFlow*> internal, inter;
  for (const MergeFlow* f : owned[child]) (f->src_child == f->dst_child ? internal : inter).push_back(f);
  const int choices = static_cast<int>(children_[child].cell_image.size());
  const bool leading = states_.size() == 1 && std::count(states_[0].orientation.begin(), states_[0].orientation.end(), -1) ==
                                                 static_cast<std::ptrdiff_t>(children_.size());
  std::vector<int> tried;
  for (int g = 0; g < choices; ++g)
    if (!leading || children_[child].lead_choices.empty() || children_[child].lead_choices[g]) tried.push_back(g);
  intra_.assign(choices, {});
  parallel_for(tried.size(), options_.threads, [&](std::size_t j, int worker) {
    const int g = tried[j];
    Scratch& sc = scratch_[worker];
    for (const MergeFlow* f : internal) add_flow(*f, g, g, sc);
    for (ChannelId c : sc.touched) intra_[g].push_back({c, sc.delta[c]});
    sc.clear();
  });
  std::vector<Candidate> candidates(states_.size() * tried.size());
  parallel_for(candidates.size(), options_.threads, [&](std::size_t k, int worker) {
    const int s = static_cast<int>(k / tried.size()), g = tried[k % tried.size()];
    Scratch& sc = scratch_[worker];
    accumulate(states_[s], child, g, inter, sc);
    candidates[k] = {score_of(states_[s].loads, states_[s].score, sc), s, g};
    sc.clear();
  });
  std::sort(candidates.begin(), candidates.end(), ranks_before);
  std::vector<int> open;  // placed children (this one included) with flows to children not placed yet
  for (int c = 0; c < static_cast<int>(children_.size()); ++c)
    if (c == child || states_[0].orientation[c] >= 0)
      for (const MergeFlow& f : flows_)
        if ((f.src_child == c && f.dst_child != child && states_[0].orientation[f.dst_child] < 0 && f.dst_child != c) ||
            (f.dst_child == c && f.src_child != child && states_[0].orientation[f.src_child] < 0 && f.src_child != c)) {
          open.push_back(c);
          break;
        }
  // Loads of every kept state are full channel vectors; keep them within ~256 MiB in all.
  const std::size_t beam =
      std::max<std::size_t>(1, std::min<std::size_t>(options_.beam, (std::size_t{1} << 28) / (channels_ * 8)));
  std::vector<State> next;
  std::unordered_set<std::uint64_t> kept;
  Scratch& sc = scratch_[0];
  for (const Candidate& cand : candidates) {
    if (next.size() >= beam) break;
    const State& parent = states_[cand.state];
    accumulate(parent, child, cand.orientation, inter, sc);
    std::uint64_t hash = parent.hash;
    for (ChannelId c : sc.touched) hash += mix(c, parent.loads[c] + sc.delta[c]) - mix(c, parent.loads[c]);
    // Equal loads are the same partial solution only if the children with flows still to route
    // sit the same way.
    std::uint64_t key = hash;
    for (int c : open) key = mix(c + 1, static_cast<double>(c == child ? cand.orientation : parent.orientation[c]) + 1) ^ (key * 0x100000001b3ULL);
    if (kept.insert(key).second) {
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

BeamResult BeamSearch::run() {
  const int m = static_cast<int>(children_.size());
  const std::vector<int> order = merge_order(children_, flows_, routing_);
  std::vector<int> position(m);
  for (int k = 0; k < m; ++k) position[order[k]] = k;
  // Each flow is routed when the later of its two children is placed.
  std::vector<std::vector<const MergeFlow*>> owned(m);
  for (const MergeFlow& f : flows_)
    owned[position[f.src_child] > position[f.dst_child] ? f.src_child : f.dst_child].push_back(&f);
  states_.assign(1, State{});
  states_[0].orientation.assign(m, -1);
  states_[0].loads.assign(channels_, 0.0);
  for (int child : order) step(child, owned);
  return {states_.front().orientation, states_.front().score.mcl, states_.front().score.sumsq};
}

BeamResult BeamSearch::best_uniform() {
  std::map<int, int> seen;
  for (const MergeChild& c : children_)
    for (int e : c.orientation_index) seen.emplace(e, 0);
  BeamResult best;
  Scratch& sc = scratch_[0];
  bool first = true;
  for (const auto& [e, unused] : seen) {
    std::vector<int> choice(children_.size(), 0);
    for (std::size_t c = 0; c < children_.size(); ++c) {
      const auto& idx = children_[c].orientation_index;
      const auto it = std::find(idx.begin(), idx.end(), e);
      if (it != idx.end()) choice[c] = static_cast<int>(it - idx.begin());
    }
    for (const MergeFlow& f : flows_) add_flow(f, choice[f.src_child], choice[f.dst_child], sc);
    const Score score = score_of({}, {}, sc);
    sc.clear();
    if (first || lower(score, {best.mcl, best.sumsq})) best = {choice, score.mcl, score.sumsq};
    first = false;
  }
  return best;
}

}  // namespace

std::vector<int> merge_order(const std::vector<MergeChild>& children, const std::vector<MergeFlow>& flows,
                             const topology::RoutingModel& routing) {
  const int m = static_cast<int>(children.size());
  std::map<std::pair<int, int>, std::vector<const MergeFlow*>> between;
  for (const MergeFlow& f : flows)
    if (f.src_child != f.dst_child)
      between[{std::min(f.src_child, f.dst_child), std::max(f.src_child, f.dst_child)}].push_back(&f);
  std::vector<double> average(m, 0.0);
  const BeamSearch search(children, flows, routing, {});
  Scratch sc(static_cast<std::size_t>(routing.grid().num_channel_slots()));
  for (const auto& [pair, list] : between) {
    for (const MergeFlow* f : list) search.add_flow(*f, 0, 0, sc);
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

BeamResult merge_children(const std::vector<MergeChild>& children, const std::vector<MergeFlow>& flows,
                          const topology::RoutingModel& routing, const BeamOptions& options) {
  BeamSearch search(children, flows, routing, options);
  BeamResult result = search.run();
  const BeamResult uniform = search.best_uniform();
  if (lower({uniform.mcl, uniform.sumsq}, {result.mcl, result.sumsq})) result = uniform;
  return result;
}

}  // namespace rankmap::rahtm
