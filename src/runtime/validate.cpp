// Argument checks for the topology calls: degrees, ranks, weights and the weighted/unweighted agreement.
#include "validate.hpp"

#include <cstdint>

namespace rankmap::runtime {

namespace {

std::string check_ranks(const char* what, const int ranks[], std::int64_t count, int size) {
  if (count > 0 && !ranks) return std::string(what) + " is NULL";
  for (std::int64_t i = 0; i < count; ++i)
    if (ranks[i] < 0 || ranks[i] >= size)
      return std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(ranks[i]) +
             " is not a rank of the communicator (size " + std::to_string(size) + ")";
  return {};
}

/// Adds one weights argument to the check; returns its problem or "".
std::string add_weights(LocalCheck& check, const char* what, const int weights[], std::int64_t count) {
  const WeightsKind kind = classify_weights(weights, count > 0 ? 1 : 0);
  if (kind == WeightsKind::unweighted) {
    check.unweighted = true;
    return {};
  }
  if (kind == WeightsKind::empty) {
    if (count > 0) return std::string(what) + " is MPI_WEIGHTS_EMPTY but the degree is " + std::to_string(count);
    return {};
  }
  if (!weights) return std::string(what) + " is NULL";
  check.weighted = true;
  for (std::int64_t i = 0; i < count; ++i)
    if (weights[i] < 0) return std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(weights[i]) + " is negative";
  return {};
}

LocalCheck finish(LocalCheck check) {
  if (check.error.empty() && check.unweighted && check.weighted)
    check.error = "MPI_UNWEIGHTED is given for one list and weights for another";
  return check;
}

}  // namespace

WeightsKind classify_weights(const int* weights, int degree) {
  if (weights == MPI_UNWEIGHTED) return WeightsKind::unweighted;
  if (weights == MPI_WEIGHTS_EMPTY || degree == 0) return WeightsKind::empty;
  return WeightsKind::array;
}

LocalCheck check_dist_graph_adjacent(int size, int indegree, const int sources[], const int sourceweights[],
                                     int outdegree, const int destinations[], const int destweights[]) {
  LocalCheck c;
  if (indegree < 0) c.error = "indegree " + std::to_string(indegree) + " is negative";
  else if (outdegree < 0) c.error = "outdegree " + std::to_string(outdegree) + " is negative";
  if (c.error.empty()) c.error = check_ranks("sources", sources, indegree, size);
  if (c.error.empty()) c.error = check_ranks("destinations", destinations, outdegree, size);
  if (c.error.empty()) c.error = add_weights(c, "sourceweights", sourceweights, indegree);
  if (c.error.empty()) c.error = add_weights(c, "destweights", destweights, outdegree);
  return finish(std::move(c));
}

LocalCheck check_dist_graph(int size, int n, const int sources[], const int degrees[], const int destinations[],
                            const int weights[]) {
  LocalCheck c;
  if (n < 0) return {"n " + std::to_string(n) + " is negative"};
  if (n > 0 && !degrees) return {"degrees is NULL"};
  c.error = check_ranks("sources", sources, n, size);
  std::int64_t edges = 0;
  for (int i = 0; i < n && c.error.empty(); ++i) {
    if (degrees[i] < 0) c.error = "degrees[" + std::to_string(i) + "] = " + std::to_string(degrees[i]) + " is negative";
    edges += degrees[i];
  }
  if (c.error.empty()) c.error = check_ranks("destinations", destinations, edges, size);
  if (c.error.empty()) c.error = add_weights(c, "weights", weights, edges);
  return finish(std::move(c));
}

LocalCheck check_cart(int size, int ndims, const int dims[]) {
  if (ndims < 0) return {"ndims " + std::to_string(ndims) + " is negative"};
  if (ndims > 0 && !dims) return {"dims is NULL"};
  std::int64_t product = 1;
  for (int d = 0; d < ndims; ++d) {
    if (dims[d] <= 0) return {"dims[" + std::to_string(d) + "] = " + std::to_string(dims[d]) + " is not positive"};
    product *= dims[d];
    if (product > size)
      return {"the grid has more than the communicator's " + std::to_string(size) + " processes"};
  }
  return {};
}

LocalCheck check_graph(int size, int nnodes, const int index[], const int edges[]) {
  if (nnodes < 0 || nnodes > size)
    return {"nnodes " + std::to_string(nnodes) + " is not from 0 to the communicator size " + std::to_string(size)};
  if (nnodes > 0 && !index) return {"index is NULL"};
  for (int i = 0; i < nnodes; ++i)
    if (index[i] < (i ? index[i - 1] : 0))
      return {"index[" + std::to_string(i) + "] = " + std::to_string(index[i]) + " is smaller than the one before"};
  const std::int64_t count = nnodes > 0 ? index[nnodes - 1] : 0;
  return {check_ranks("edges", edges, count, nnodes)};
}

LocalCheck check_out_edges(int size, int outdegree, const int destinations[], const int weights[]) {
  LocalCheck c;
  if (outdegree < 0) return {"outdegree " + std::to_string(outdegree) + " is negative"};
  c.error = check_ranks("destinations", destinations, outdegree, size);
  if (c.error.empty() && weights) c.error = add_weights(c, "weights", weights, outdegree);
  return finish(std::move(c));
}

}  // namespace rankmap::runtime
