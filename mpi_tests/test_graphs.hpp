// Graphs for the MPI tests, built identically on every rank, and helpers to check a reordered communicator.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <vector>

namespace rankmap::mpitest {

/// One vertex's adjacency exactly as given to MPI_Dist_graph_create_adjacent.
struct VertexLists {
  std::vector<int> sources, source_weights, destinations, dest_weights;
};

inline int rank_of(MPI_Comm c) {
  int r = 0;
  MPI_Comm_rank(c, &r);
  return r;
}

inline int size_of(MPI_Comm c) {
  int s = 0;
  MPI_Comm_size(c, &s);
  return s;
}

/// A deterministic shuffle of 0..n-1, the same on every rank.
inline std::vector<int> scramble(int n, std::uint64_t seed) {
  std::vector<int> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  std::uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
  for (int i = n - 1; i > 0; --i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    std::swap(p[i], p[static_cast<int>((x >> 33) % static_cast<std::uint64_t>(i + 1))]);
  }
  return p;
}

/// Adjacency lists of every vertex from directed weighted edges; in-lists list sources in edge order.
inline std::vector<VertexLists> lists_from_edges(int n, const std::vector<std::array<int, 3>>& edges) {
  std::vector<VertexLists> v(static_cast<std::size_t>(n));
  for (const auto& [s, d, w] : edges) {
    v[s].destinations.push_back(d);
    v[s].dest_weights.push_back(w);
    v[d].sources.push_back(s);
    v[d].source_weights.push_back(w);
  }
  return v;
}

/// A ring through a scrambled order of the vertices, both directions with distinct weights, so
/// that ring neighbours sit far apart in the launcher's order and a mapper has something to gain.
/// No parallel edges: a ring of two is a single edge each way. `seed` chooses the order.
inline std::vector<VertexLists> scrambled_ring(int n, std::uint64_t seed = 7) {
  const std::vector<int> order = scramble(n, seed);
  std::vector<std::array<int, 3>> edges;
  for (int i = 0; i < (n > 2 ? n : n - 1); ++i) {
    const int a = order[i], b = order[(i + 1) % n];
    edges.push_back({a, b, 100 + i});
    edges.push_back({b, a, 300 + i});
  }
  return lists_from_edges(n, edges);
}

/// Everything awkward at once: duplicate edges, self loops, isolated vertices, lists not sorted.
inline std::vector<VertexLists> awkward_graph(int n) {
  std::vector<std::array<int, 3>> edges;
  for (int v = 0; v < n; ++v) {
    if (v % 4 == 3) continue;  // isolated: degree zero both ways
    const int far = (v * 5 + 3) % n;
    edges.push_back({v, far, 7 + v});
    if (v % 2 == 0) edges.push_back({v, far, 11 + v});  // a duplicate edge with another weight
    if (v % 3 == 0) edges.push_back({v, v, 5});          // a self loop
  }
  std::vector<std::array<int, 3>> kept;
  for (const auto& e : edges)
    if (e[0] % 4 != 3 && e[1] % 4 != 3) kept.push_back(e);
  std::reverse(kept.begin(), kept.end());  // lists in descending edge order, not sorted
  return lists_from_edges(n, kept);
}

/// slot_of[t] = old rank of the process that is rank t of `reordered` (old ranks in `old`).
inline std::vector<int> permutation_of(MPI_Comm old, MPI_Comm reordered) {
  int old_rank = 0, size = 0;
  MPI_Comm_rank(old, &old_rank);
  MPI_Comm_size(reordered, &size);
  std::vector<int> slot_of(static_cast<std::size_t>(size));
  MPI_Allgather(&old_rank, 1, MPI_INT, slot_of.data(), 1, MPI_INT, reordered);
  return slot_of;
}

inline bool is_identity(const std::vector<int>& p) {
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p[i] != static_cast<int>(i)) return false;
  return true;
}

/// A value that names its sender, receiver and which of several parallel edges it travels on.
inline int encode(int from, int to, int k) { return (from * 1000 + to) * 100 + k; }

/// The index of the m-th occurrence of `value` in `list` (parallel edges are matched in order).
inline int nth_index(const std::vector<int>& list, int value, int m) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i] == value && m-- == 0) return static_cast<int>(i);
  return -1;
}

}  // namespace rankmap::mpitest
