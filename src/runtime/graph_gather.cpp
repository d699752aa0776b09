// Gathering the graph to rank 0 as (source, destination, weight) triples, and reading it there.
#include "graph_gather.hpp"

#include "request.hpp"

#include <algorithm>
#include <climits>
#include <iterator>

namespace rankmap::runtime {

namespace {

constexpr int kRoot = 0;

/// Rank 0's total of the gathered counts; -1 when some count is negative or the total exceeds an int.
long long total_of(const std::vector<int>& counts) {
  long long total = 0;
  for (int c : counts) {
    if (c < 0) return -1;
    total += c;
  }
  return total > INT_MAX ? -1 : total;
}

std::string edge_text(const std::pair<int, int>& e, const char* first, const char* second, int first_rank,
                      int second_rank) {
  return "edge " + std::to_string(e.first) + "->" + std::to_string(e.second) + " is a " + first + " of rank " +
         std::to_string(first_rank) + " but not a " + second + " of rank " + std::to_string(second_rank);
}

}  // namespace

GraphGather prepare_graph_gather(int rank, int size) {
  GraphGather g;
  if (rank == kRoot) {
    g.counts.assign(static_cast<std::size_t>(size), 0);
    g.displs.assign(static_cast<std::size_t>(size), 0);
  }
  return g;
}

void gather_counts(MPI_Comm comm, int rank, GraphGather& g, StepGuard& guard) noexcept {
  const auto mine = static_cast<long long>(guard.ok() ? g.mine.size() : 0);
  int count = mine > INT_MAX ? -1 : static_cast<int>(mine);
  guard.mpi(Step::graph_counts, PMPI_Gather(&count, 1, MPI_INT, g.counts.data(), 1, MPI_INT, kRoot, comm));
  if (rank != kRoot) return;
  long long total = 0;
  guard.local(Step::graph_size, [&] {
    total = total_of(g.counts);
    if (total < 0) guard.fail(Step::graph_size, {});
  });
  guard.local(Step::graph_buffer, [&] {
    for (std::size_t r = 1; r < g.counts.size(); ++r) g.displs[r] = g.displs[r - 1] + g.counts[r - 1];
    g.all.resize(static_cast<std::size_t>(total));
  });
}

void gather_edges(MPI_Comm comm, GraphGather& g, StepGuard& guard) noexcept {
  guard.mpi(Step::graph_gather, PMPI_Gatherv(g.mine.data(), static_cast<int>(g.mine.size()), MPI_INT, g.all.data(),
                                             g.counts.data(), g.displs.data(), MPI_INT, kRoot, comm));
}

std::string inconsistent_edge(const std::vector<int>& triples) {
  std::vector<std::pair<int, int>> out, in;
  for (std::size_t k = 0; k + 2 < triples.size(); k += 3)
    (triples[k + 2] == kInEdge ? in : out).emplace_back(triples[k], triples[k + 1]);
  std::sort(out.begin(), out.end());
  std::sort(in.begin(), in.end());
  if (out == in) return {};
  std::vector<std::pair<int, int>> only_out, only_in;
  std::set_difference(out.begin(), out.end(), in.begin(), in.end(), std::back_inserter(only_out));
  std::set_difference(in.begin(), in.end(), out.begin(), out.end(), std::back_inserter(only_in));
  if (!only_out.empty())
    return edge_text(only_out[0], "destination", "source", only_out[0].first, only_out[0].second);
  return edge_text(only_in[0], "source", "destination", only_in[0].second, only_in[0].first);
}

graph::CommGraph graph_of(TaskId n, const std::vector<int>& triples) {
  std::vector<graph::Edge> edges;
  edges.reserve(triples.size() / 3);
  for (std::size_t k = 0; k + 2 < triples.size(); k += 3)
    if (triples[k + 2] != kInEdge) edges.push_back({triples[k], triples[k + 1], static_cast<double>(triples[k + 2])});
  return graph::CommGraph::from_edges(n, std::move(edges));
}

}  // namespace rankmap::runtime
