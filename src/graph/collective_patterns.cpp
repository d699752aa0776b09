// Point-to-point patterns of collective algorithms, all-to-all, and seeded random sparse traffic.
#include "graph/pattern_builders.hpp"

#include <rankmap/seeded_random.hpp>

#include <algorithm>
#include <bit>

namespace rankmap::graph::patterns {

// A closed ring: every rank sends one message to each of its two neighbours.
CommGraph ring(TaskId ranks, double bytes) {
  EdgeList edges(2 * static_cast<std::int64_t>(ranks));
  for (TaskId t = 0; t < ranks; ++t) {
    edges.add(t, (t + 1) % ranks, bytes);
    edges.add(t, (t + ranks - 1) % ranks, bytes);
  }
  return std::move(edges).build(ranks);
}

// Recursive-doubling allreduce: in round k rank i exchanges with i xor 2^k. With a rank count
// that is not a power of two p2, rank p2 + j first hands its data to rank j and gets the result
// back at the end, as MPICH does.
CommGraph recursive_doubling(TaskId ranks, double bytes) {
  const TaskId p2 = static_cast<TaskId>(std::bit_floor(static_cast<std::uint32_t>(ranks)));
  EdgeList edges(static_cast<std::int64_t>(ranks) * (std::bit_width(static_cast<std::uint32_t>(ranks)) + 1));
  for (TaskId extra = p2; extra < ranks; ++extra) {
    edges.add(extra, extra - p2, bytes);
    edges.add(extra - p2, extra, bytes);
  }
  for (TaskId mask = 1; mask < p2; mask <<= 1)
    for (TaskId i = 0; i < p2; ++i) edges.add(i, i ^ mask, bytes);
  return std::move(edges).build(ranks);
}

// Binomial-tree broadcast from rank 0: in round k every rank i < 2^k that has the data sends it to i + 2^k.
CommGraph binomial_tree(TaskId ranks, double bytes) {
  EdgeList edges(ranks);
  for (std::int64_t mask = 1; mask < ranks; mask <<= 1)
    for (std::int64_t i = 0; i < mask && i + mask < ranks; ++i)
      edges.add(static_cast<TaskId>(i), static_cast<TaskId>(i + mask), bytes);
  return std::move(edges).build(ranks);
}

// Bruck's dissemination (allgather or alltoall): in round k rank i sends to (i + 2^k) mod P.
CommGraph bruck(TaskId ranks, double bytes) {
  EdgeList edges(static_cast<std::int64_t>(ranks) * std::bit_width(static_cast<std::uint32_t>(ranks)));
  for (std::int64_t dist = 1; dist < ranks; dist <<= 1)
    for (TaskId i = 0; i < ranks; ++i) edges.add(i, static_cast<TaskId>((i + dist) % ranks), bytes);
  return std::move(edges).build(ranks);
}

// Pairwise all-to-all: every rank sends one message to every other rank.
CommGraph all_to_all(TaskId ranks, double bytes) {
  EdgeList edges(static_cast<std::int64_t>(ranks) * (ranks - 1));
  for (TaskId i = 0; i < ranks; ++i)
    for (TaskId j = 0; j < ranks; ++j) edges.add(i, j, bytes);
  return std::move(edges).build(ranks);
}

// Unstructured sparse traffic: every rank sends one message to each of kRandomDegree distinct
// other ranks drawn uniformly with the given seed.
CommGraph random_sparse(TaskId ranks, double bytes, std::uint64_t seed) {
  const int degree = static_cast<int>(std::min<std::int64_t>(kRandomDegree, ranks - 1));
  EdgeList edges(static_cast<std::int64_t>(ranks) * degree);
  SeededRandom rng(seed);
  std::vector<TaskId> chosen;
  for (TaskId i = 0; i < ranks; ++i) {
    chosen.clear();
    while (static_cast<int>(chosen.size()) < degree) {
      // Draw from the other ranks: skip over i itself.
      TaskId j = static_cast<TaskId>(rng.below(static_cast<std::uint64_t>(ranks - 1)));
      if (j >= i) ++j;
      if (std::find(chosen.begin(), chosen.end(), j) == chosen.end()) chosen.push_back(j);
    }
    for (TaskId j : chosen) edges.add(i, j, bytes);
  }
  return std::move(edges).build(ranks);
}

}  // namespace rankmap::graph::patterns
