// The topology calls as engine requests: adjacent and general distributed graphs, Cartesian, graph, out-edges.
#pragma once

#include "request.hpp"

namespace rankmap::runtime {

class AdjacentRequest final : public Request {
 public:
  AdjacentRequest(MPI_Comm comm, int indegree, const int sources[], const int sourceweights[], int outdegree,
                  const int destinations[], const int destweights[], MPI_Info info)
      : comm_(comm), indegree_(indegree), sources_(sources), sourceweights_(sourceweights), outdegree_(outdegree),
        destinations_(destinations), destweights_(destweights), info_(info) {}
  const char* name() const override { return "MPI_Dist_graph_create_adjacent"; }
  ReorderCall call_kind() const override { return reorder_dist_graph; }
  int call_mpi(int reorder, MPI_Comm* result) const override;
  LocalCheck check(int comm_size) const override;
  LocalEdges edges(int rank) const override;
  bool checks_in_edges() const override { return true; }
  bool moves_lists() const override { return true; }
  std::vector<int> pack_lists() const override;
  bool lists_valid(const std::vector<int>& lists) const override;
  int build(MPI_Comm renumbered, const std::vector<int>& lists, MPI_Comm* result) const noexcept override;

 private:
  MPI_Comm comm_;
  int indegree_;
  const int* sources_;
  const int* sourceweights_;
  int outdegree_;
  const int* destinations_;
  const int* destweights_;
  MPI_Info info_;
};

class DistGraphRequest final : public Request {
 public:
  DistGraphRequest(MPI_Comm comm, int n, const int sources[], const int degrees[], const int destinations[],
                   const int weights[], MPI_Info info)
      : comm_(comm), n_(n), sources_(sources), degrees_(degrees), destinations_(destinations), weights_(weights),
        info_(info) {}
  const char* name() const override { return "MPI_Dist_graph_create"; }
  ReorderCall call_kind() const override { return reorder_dist_graph; }
  int call_mpi(int reorder, MPI_Comm* result) const override;
  LocalCheck check(int comm_size) const override;
  LocalEdges edges(int rank) const override;
  int build(MPI_Comm renumbered, const std::vector<int>& lists, MPI_Comm* result) const noexcept override;

 private:
  MPI_Comm comm_;
  int n_;
  const int* sources_;
  const int* degrees_;
  const int* destinations_;
  const int* weights_;
  MPI_Info info_;
};

class CartRequest final : public Request {
 public:
  CartRequest(MPI_Comm comm, int ndims, const int dims[], const int periods[])
      : comm_(comm), ndims_(ndims), dims_(dims), periods_(periods) {}
  const char* name() const override { return "MPI_Cart_create"; }
  ReorderCall call_kind() const override { return reorder_cart; }
  int call_mpi(int reorder, MPI_Comm* result) const override;
  LocalCheck check(int comm_size) const override;
  std::uint64_t replicated_hash() const override;
  TaskId num_tasks(int comm_size) const override;
  bool replicated() const override { return true; }
  LocalEdges edges(int rank) const override;
  int build(MPI_Comm renumbered, const std::vector<int>& lists, MPI_Comm* result) const noexcept override;

 private:
  MPI_Comm comm_;
  int ndims_;
  const int* dims_;
  const int* periods_;
};

class GraphRequest final : public Request {
 public:
  GraphRequest(MPI_Comm comm, int nnodes, const int index[], const int edges[])
      : comm_(comm), nnodes_(nnodes), index_(index), edges_(edges) {}
  const char* name() const override { return "MPI_Graph_create"; }
  ReorderCall call_kind() const override { return reorder_graph; }
  int call_mpi(int reorder, MPI_Comm* result) const override;
  LocalCheck check(int comm_size) const override;
  std::uint64_t replicated_hash() const override;
  TaskId num_tasks(int) const override { return nnodes_; }
  bool replicated() const override { return true; }
  LocalEdges edges(int rank) const override;
  int build(MPI_Comm renumbered, const std::vector<int>& lists, MPI_Comm* result) const noexcept override;

 private:
  MPI_Comm comm_;
  int nnodes_;
  const int* index_;
  const int* edges_;
};

/// rankmap_comm_reorder: out-edges per process, a plain communicator out, a duplicate when not reordered.
class OutEdgesRequest final : public Request {
 public:
  OutEdgesRequest(MPI_Comm comm, int outdegree, const int destinations[], const int weights[])
      : comm_(comm), outdegree_(outdegree), destinations_(destinations), weights_(weights) {}
  const char* name() const override { return "rankmap_comm_reorder"; }
  ReorderCall call_kind() const override { return reorder_none; }
  int call_mpi(int reorder, MPI_Comm* result) const override;
  LocalCheck check(int comm_size) const override;
  LocalEdges edges(int rank) const override;
  int build(MPI_Comm renumbered, const std::vector<int>& lists, MPI_Comm* result) const noexcept override;

 private:
  MPI_Comm comm_;
  int outdegree_;
  const int* destinations_;
  const int* weights_;
};

}  // namespace rankmap::runtime
