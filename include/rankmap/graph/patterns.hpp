// Synthetic communication patterns of common HPC codes and collectives, for tests, benchmarks and `rankmap gen`.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::graph {

/// What to generate. Give the size as `ranks`, as `dims` (process-grid extents), or both when
/// they agree. A grid pattern given only `ranks` uses the most balanced dims (balanced_dims);
/// a pattern without a grid given `dims` uses their product as the rank count.
struct PatternSpec {
  std::string name;
  std::vector<int> dims;
  TaskId ranks = 0;
  double bytes = 1;       ///< bytes per message (nas-bt and nas-sp: per face exchange, see patterns.cpp)
  bool periodic = false;  ///< stencils only: wrap around the process grid
  std::uint64_t seed = 1; ///< random only
};

/// Builds the pattern; throws InputError naming the pattern for an unknown name or an
/// impossible combination (e.g. nas-bt on a rank count that is not a square).
///
/// What each pattern models (ranks row-major on the process grid; docs/formats.md has details):
/// - stencil2d, stencil3d, stencil27: halo exchange with the 4, 6 or 26 grid neighbours;
/// - ring: each rank with its two ring neighbours;
/// - recdoubling: recursive-doubling allreduce (r <-> r xor 2^k; extra ranks fold in first);
/// - binomial: binomial-tree broadcast from rank 0;
/// - bruck: Bruck's dissemination, r -> r + 2^k mod P;
/// - alltoall: every rank to every other;
/// - fft2d: 2D FFT transposes, all-to-all within each row and each column of a 2D grid;
/// - nas-cg: NPB CG, recursive-doubling reductions along the rows of a 2D grid plus the transpose partner;
/// - nas-bt, nas-sp: NPB BT/SP multi-partition on a square grid, six neighbours, with the
///   line-solve sweeps weighting successors and predecessors differently;
/// - random: seeded random sparse, six distinct partners per rank.
CommGraph make_pattern(const PatternSpec& spec);

/// The pattern names make_pattern() accepts, in a fixed order.
std::span<const std::string_view> pattern_names();

/// The most balanced way to write `ranks` as a product of `ndims` factors, largest first,
/// as MPI_Dims_create does: the smallest difference between largest and smallest factor.
std::vector<int> balanced_dims(TaskId ranks, int ndims);

}  // namespace rankmap::graph
