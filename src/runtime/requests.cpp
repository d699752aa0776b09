// The topology calls as engine requests; the adjacent one moves each vertex's lists to its new owner.
#include "requests.hpp"

#include <rankmap/hash.hpp>

namespace rankmap::runtime {

namespace {

int weight_at(const int weights[], std::size_t k) {
  return weights && weights != MPI_UNWEIGHTED && weights != MPI_WEIGHTS_EMPTY ? weights[k] : 1;
}

void add_out_edges(LocalEdges& e, int src, int degree, const int destinations[], const int weights[]) {
  for (int k = 0; k < degree; ++k) e.triples.insert(e.triples.end(), {src, destinations[k], weight_at(weights, k)});
}

/// Creates the topology on `renumbered`, then frees `renumbered`, which the topology no longer needs.
/// A process left out of a Cartesian or graph topology smaller than the communicator has no
/// `renumbered` and gets MPI_COMM_NULL, as MPI specifies.
int create_on_renumbered(MPI_Comm renumbered, MPI_Comm* result, auto&& create) noexcept {
  if (renumbered == MPI_COMM_NULL) {
    *result = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  const int rc = create(renumbered);
  PMPI_Comm_free(&renumbered);
  return rc;
}

/// One vertex's lists in one int message: degrees, weight kinds, ranks and weights.
std::vector<int> pack_vertex_lists(int indegree, const int sources[], const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[]) {
  const WeightsKind in_kind = classify_weights(sourceweights, indegree);
  const WeightsKind out_kind = classify_weights(destweights, outdegree);
  std::vector<int> m = {indegree, outdegree, static_cast<int>(in_kind), static_cast<int>(out_kind)};
  m.insert(m.end(), sources, sources + indegree);
  if (in_kind == WeightsKind::array) m.insert(m.end(), sourceweights, sourceweights + indegree);
  m.insert(m.end(), destinations, destinations + outdegree);
  if (out_kind == WeightsKind::array) m.insert(m.end(), destweights, destweights + outdegree);
  return m;
}

/// The length of a pack_vertex_lists() message with these degrees and weight kinds.
std::size_t packed_size(int indegree, int outdegree, WeightsKind in_kind, WeightsKind out_kind) {
  const auto in = static_cast<std::size_t>(indegree), out = static_cast<std::size_t>(outdegree);
  return 4 + in * (in_kind == WeightsKind::array ? 2 : 1) + out * (out_kind == WeightsKind::array ? 2 : 1);
}

bool is_weights_kind(int k) {
  return k == static_cast<int>(WeightsKind::array) || k == static_cast<int>(WeightsKind::unweighted) ||
         k == static_cast<int>(WeightsKind::empty);
}

const int* weights_pointer(WeightsKind kind, const int* data) {
  if (kind == WeightsKind::unweighted) return MPI_UNWEIGHTED;
  if (kind == WeightsKind::empty) return MPI_WEIGHTS_EMPTY;
  return data;
}

int create_from_lists(MPI_Comm comm, const std::vector<int>& m, MPI_Info info, MPI_Comm* result) {
  const int indegree = m[0], outdegree = m[1];
  const auto in_kind = static_cast<WeightsKind>(m[2]), out_kind = static_cast<WeightsKind>(m[3]);
  const int* p = m.data() + 4;
  const int* sources = p;
  p += indegree;
  const int* sourceweights = weights_pointer(in_kind, p);
  if (in_kind == WeightsKind::array) p += indegree;
  const int* destinations = p;
  p += outdegree;
  const int* destweights = weights_pointer(out_kind, p);
  return PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations, destweights,
                                         info, 0, result);
}

std::uint64_t hash_ints(std::initializer_list<std::span<const int>> parts) {
  StableHash h;
  for (const auto part : parts) {
    h.u64(part.size());
    for (int v : part) h.u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(v)));
  }
  return h.digest();
}

}  // namespace

int AdjacentRequest::call_mpi(int reorder, MPI_Comm* result) const {
  return PMPI_Dist_graph_create_adjacent(comm_, indegree_, sources_, sourceweights_, outdegree_, destinations_,
                                         destweights_, info_, reorder, result);
}

LocalCheck AdjacentRequest::check(int comm_size) const {
  return check_dist_graph_adjacent(comm_size, indegree_, sources_, sourceweights_, outdegree_, destinations_,
                                   destweights_);
}

LocalEdges AdjacentRequest::edges(int rank) const {
  LocalEdges e;
  add_out_edges(e, rank, outdegree_, destinations_, destweights_);
  for (int k = 0; k < indegree_; ++k) e.triples.insert(e.triples.end(), {sources_[k], rank, kInEdge});
  return e;
}

std::vector<int> AdjacentRequest::pack_lists() const {
  return pack_vertex_lists(indegree_, sources_, sourceweights_, outdegree_, destinations_, destweights_);
}

bool AdjacentRequest::lists_valid(const std::vector<int>& m) const {
  if (m.size() < 4 || m[0] < 0 || m[1] < 0 || !is_weights_kind(m[2]) || !is_weights_kind(m[3])) return false;
  return m.size() == packed_size(m[0], m[1], static_cast<WeightsKind>(m[2]), static_cast<WeightsKind>(m[3]));
}

int AdjacentRequest::build(MPI_Comm renumbered, const std::vector<int>& lists, MPI_Comm* result) const noexcept {
  // Old rank r held vertex r's lists and sent them to rank r of `renumbered`, which plays vertex r.
  return create_on_renumbered(renumbered, result,
                              [&](MPI_Comm comm) { return create_from_lists(comm, lists, info_, result); });
}

int DistGraphRequest::call_mpi(int reorder, MPI_Comm* result) const {
  return PMPI_Dist_graph_create(comm_, n_, sources_, degrees_, destinations_, weights_, info_, reorder, result);
}

LocalCheck DistGraphRequest::check(int comm_size) const {
  return check_dist_graph(comm_size, n_, sources_, degrees_, destinations_, weights_);
}

LocalEdges DistGraphRequest::edges(int) const {
  LocalEdges e;
  std::size_t k = 0;
  for (int i = 0; i < n_; ++i)
    for (int j = 0; j < degrees_[i]; ++j, ++k)
      e.triples.insert(e.triples.end(), {sources_[i], destinations_[k], weight_at(weights_, k)});
  return e;
}

int DistGraphRequest::build(MPI_Comm renumbered, const std::vector<int>&, MPI_Comm* result) const noexcept {
  // Edges name vertices, and vertex t is rank t of `renumbered`: the same arguments describe the
  // same graph there, and MPI delivers each edge to its vertex's new owner.
  return create_on_renumbered(renumbered, result, [&](MPI_Comm comm) {
    return PMPI_Dist_graph_create(comm, n_, sources_, degrees_, destinations_, weights_, info_, 0, result);
  });
}

int CartRequest::call_mpi(int reorder, MPI_Comm* result) const {
  return PMPI_Cart_create(comm_, ndims_, dims_, periods_, reorder, result);
}

LocalCheck CartRequest::check(int comm_size) const { return check_cart(comm_size, ndims_, dims_); }

std::uint64_t CartRequest::replicated_hash() const {
  std::vector<int> periodic(static_cast<std::size_t>(ndims_));
  for (int d = 0; d < ndims_; ++d) periodic[d] = periods_[d] != 0;
  return hash_ints({std::span<const int>(dims_, ndims_), periodic});
}

TaskId CartRequest::num_tasks(int) const {
  TaskId n = 1;
  for (int d = 0; d < ndims_; ++d) n *= dims_[d];
  return n;
}

LocalEdges CartRequest::edges(int) const {
  // Row-major like MPI_Cart_rank: the last dimension varies fastest.
  LocalEdges e;
  const TaskId n = num_tasks(0);
  std::vector<TaskId> stride(static_cast<std::size_t>(ndims_), 1);
  for (int d = ndims_ - 2; d >= 0; --d) stride[d] = stride[d + 1] * dims_[d + 1];
  for (TaskId t = 0; t < n; ++t)
    for (int d = 0; d < ndims_; ++d) {
      const int c = (t / stride[d]) % dims_[d];
      for (int step : {-1, 1}) {
        int next = c + step;
        if (next < 0 || next >= dims_[d]) {
          if (!periods_[d]) continue;
          next = (next + dims_[d]) % dims_[d];
        }
        e.triples.insert(e.triples.end(), {t, t + (next - c) * stride[d], 1});
      }
    }
  return e;
}

int CartRequest::build(MPI_Comm renumbered, const std::vector<int>&, MPI_Comm* result) const noexcept {
  return create_on_renumbered(renumbered, result,
                              [&](MPI_Comm comm) { return PMPI_Cart_create(comm, ndims_, dims_, periods_, 0, result); });
}

int GraphRequest::call_mpi(int reorder, MPI_Comm* result) const {
  return PMPI_Graph_create(comm_, nnodes_, index_, edges_, reorder, result);
}

LocalCheck GraphRequest::check(int comm_size) const { return check_graph(comm_size, nnodes_, index_, edges_); }

std::uint64_t GraphRequest::replicated_hash() const {
  const int count = nnodes_ > 0 ? index_[nnodes_ - 1] : 0;
  return hash_ints({std::span<const int>(index_, nnodes_), std::span<const int>(edges_, count)});
}

LocalEdges GraphRequest::edges(int) const {
  LocalEdges e;
  for (int i = 0; i < nnodes_; ++i)
    for (int k = i ? index_[i - 1] : 0; k < index_[i]; ++k) e.triples.insert(e.triples.end(), {i, edges_[k], 1});
  return e;
}

int GraphRequest::build(MPI_Comm renumbered, const std::vector<int>&, MPI_Comm* result) const noexcept {
  return create_on_renumbered(renumbered, result,
                              [&](MPI_Comm comm) { return PMPI_Graph_create(comm, nnodes_, index_, edges_, 0, result); });
}

int OutEdgesRequest::call_mpi(int, MPI_Comm* result) const { return PMPI_Comm_dup(comm_, result); }

LocalCheck OutEdgesRequest::check(int comm_size) const {
  return check_out_edges(comm_size, outdegree_, destinations_, weights_);
}

LocalEdges OutEdgesRequest::edges(int rank) const {
  LocalEdges e;
  add_out_edges(e, rank, outdegree_, destinations_, weights_);
  return e;
}

int OutEdgesRequest::build(MPI_Comm renumbered, const std::vector<int>&, MPI_Comm* result) const noexcept {
  *result = renumbered;
  return MPI_SUCCESS;
}

}  // namespace rankmap::runtime
