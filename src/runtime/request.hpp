// One topology call as the reorder engine sees it: checks, graph edges, the plain call and the build.
#pragma once

#include "config.hpp"
#include "validate.hpp"

#include <rankmap/types.hpp>

#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

namespace rankmap::runtime {

/// Edges as the engine gathers them, three ints each: out-edges (source, destination, weight >= 0)
/// and, for consistency checks, the in-edges this process declared as (source, destination, -1),
/// so that one gather carries both.
struct LocalEdges {
  std::vector<int> triples;
};

/// The weight field that marks a declared in-edge.
inline constexpr int kInEdge = -1;

class Request {
 public:
  virtual ~Request() = default;
  virtual const char* name() const = 0;
  /// Which RANKMAP_REORDER word names this call (reorder_none for the C API's own calls).
  virtual ReorderCall call_kind() const = 0;
  /// The underlying MPI call on the original communicator, with this reorder flag.
  virtual int call_mpi(int reorder, MPI_Comm* result) const = 0;
  /// This process's arguments, checked without communicating.
  virtual LocalCheck check(int comm_size) const = 0;
  /// Calls whose arguments every process must give identically (Cartesian, graph) return their
  /// hash, so that processes can agree on it; 0 for the others.
  virtual std::uint64_t replicated_hash() const { return 0; }
  /// Size of the topology: the communicator size, or fewer for Cartesian and graph topologies.
  virtual TaskId num_tasks(int comm_size) const { return comm_size; }
  /// True when every process holds the whole graph, so the root needs no gather.
  virtual bool replicated() const { return false; }
  /// The edges this process contributes (all of them when replicated()); weight 1 when unweighted.
  virtual LocalEdges edges(int rank) const = 0;
  /// True when in-edges must match out-edges exactly (MPI_Dist_graph_create_adjacent).
  virtual bool checks_in_edges() const { return false; }
  /// True when each process's lists must move to the process that plays its vertex
  /// (MPI_Dist_graph_create_adjacent): the engine sends pack_lists() there before build().
  virtual bool moves_lists() const { return false; }
  /// This process's lists in one message (moves_lists() only). May throw.
  virtual std::vector<int> pack_lists() const { return {}; }
  /// Whether a received message is a well-formed pack_lists() (moves_lists() only).
  virtual bool lists_valid(const std::vector<int>&) const { return true; }
  /// Creates the result on `renumbered` (rank t there plays vertex t); `renumbered` is
  /// MPI_COMM_NULL on processes outside the topology. `lists` are those received for this
  /// process's new vertex (moves_lists() only). Frees or adopts `renumbered`; never throws.
  virtual int build(MPI_Comm renumbered, const std::vector<int>& lists, MPI_Comm* result) const noexcept = 0;
};

}  // namespace rankmap::runtime
