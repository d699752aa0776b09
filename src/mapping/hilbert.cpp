// The hilbert mapper: tasks in rank order along an n-D Hilbert curve through the allocated nodes.
#include <rankmap/mapping/hilbert.hpp>
#include <rankmap/mapping/mapping.hpp>

#include "slot_layout.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace rankmap::mapping {

namespace {

using topology::Allocation;
using topology::Grid;

/// The frame the curve is drawn in: the grid dimensions the allocation spans, and for each
/// the coordinate that becomes 0.
struct CurveFrame {
  int ndims = 0;
  int bits = 1;
  std::array<int, topology::kMaxDims> grid_dim{};
  std::array<int, topology::kMaxDims> origin{};
};

/// Where the allocation starts along one dimension. On a torus the box starts just after the
/// longest run of unused coordinates, so that an allocation wrapping around the seam is not
/// cut in two; a full ring keeps origin 0.
int dimension_origin(const Grid& grid, int d, const std::vector<bool>& used, int& span) {
  const int k = grid.extent(d);
  if (!grid.is_torus(d)) {
    const int lo = static_cast<int>(std::find(used.begin(), used.end(), true) - used.begin());
    const int hi = k - 1 - static_cast<int>(std::find(used.rbegin(), used.rend(), true) - used.rbegin());
    span = hi - lo + 1;
    return lo;
  }
  int best_gap = 0, best_end = 0;
  const int first_used = static_cast<int>(std::find(used.begin(), used.end(), true) - used.begin());
  for (int i = 0, gap = 0; i < k; ++i) {  // walk once round, starting at a used coordinate
    const int c = (first_used + 1 + i) % k;
    gap = used[c] ? 0 : gap + 1;
    if (gap > best_gap) best_gap = gap, best_end = (c + 1) % k;
  }
  span = k - best_gap;
  return best_gap == 0 ? 0 : best_end;
}

CurveFrame curve_frame(const Allocation& alloc) {
  const Grid& grid = alloc.grid();
  CurveFrame frame;
  int longest = 1;
  for (int d = 0; d < grid.ndims(); ++d) {
    std::vector<bool> used(static_cast<std::size_t>(grid.extent(d)), false);
    for (NodeId n : alloc.nodes()) used[grid.coord(n, d)] = true;
    int span = 0;
    const int origin = dimension_origin(grid, d, used, span);
    if (span <= 1) continue;
    frame.grid_dim[frame.ndims] = d;
    frame.origin[frame.ndims] = origin;
    ++frame.ndims;
    longest = std::max(longest, span);
  }
  while ((1 << frame.bits) < longest) ++frame.bits;
  return frame;
}

/// Skilling's AxestoTranspose followed by reading the transposed bits out, most significant
/// first: the index of point x on the Hilbert curve of the box [0, 2^bits)^n.
template <typename Key>
Key hilbert_index(std::array<std::uint32_t, topology::kMaxDims> x, int n, int bits) {
  const std::uint32_t top = 1u << (bits - 1);
  for (std::uint32_t q = top; q > 1; q >>= 1) {  // inverse undo
    const std::uint32_t p = q - 1;
    for (int i = 0; i < n; ++i) {
      if (x[i] & q) {
        x[0] ^= p;
      } else {
        const std::uint32_t t = (x[0] ^ x[i]) & p;
        x[0] ^= t;
        x[i] ^= t;
      }
    }
  }
  for (int i = 1; i < n; ++i) x[i] ^= x[i - 1];  // Gray encode
  std::uint32_t t = 0;
  for (std::uint32_t q = top; q > 1; q >>= 1)
    if (x[n - 1] & q) t ^= q - 1;
  for (int i = 0; i < n; ++i) x[i] ^= t;
  Key key = 0;
  for (int b = bits - 1; b >= 0; --b)
    for (int i = 0; i < n; ++i) key = (key << 1) | ((x[i] >> b) & 1u);
  return key;
}

template <typename Key>
std::vector<int> sort_by_curve(const Allocation& alloc, const CurveFrame& frame) {
  const Grid& grid = alloc.grid();
  std::vector<std::pair<Key, int>> keyed(static_cast<std::size_t>(alloc.num_nodes()));
  std::array<std::uint32_t, topology::kMaxDims> x{};
  for (int i = 0; i < alloc.num_nodes(); ++i) {
    const topology::Coords c = grid.coords_of(alloc.node(i));
    for (int j = 0; j < frame.ndims; ++j) {
      const int d = frame.grid_dim[j];
      const int k = grid.extent(d);
      x[j] = static_cast<std::uint32_t>((c[d] - frame.origin[j] + k) % k);
    }
    keyed[i] = {hilbert_index<Key>(x, frame.ndims, frame.bits), i};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<int> order(keyed.size());
  for (std::size_t i = 0; i < keyed.size(); ++i) order[i] = keyed[i].second;
  return order;
}

}  // namespace

std::vector<int> hilbert_node_order(const Allocation& alloc) {
  topology::require_grid(alloc.network(), "hilbert");
  const CurveFrame frame = curve_frame(alloc);
  if (frame.ndims == 0) return std::vector<int>(static_cast<std::size_t>(alloc.num_nodes()), 0);
  if (frame.ndims * frame.bits <= 64) return sort_by_curve<std::uint64_t>(alloc, frame);
  return sort_by_curve<unsigned __int128>(alloc, frame);  // at most 8 dims x 14 bits
}

std::vector<SlotId> hilbert_slot_order(const Allocation& alloc) {
  std::vector<SlotId> order;
  order.reserve(static_cast<std::size_t>(alloc.num_slots()));
  for (int node : hilbert_node_order(alloc))
    for (SlotId s : alloc.slots_of_node(node)) order.push_back(s);
  return order;
}

Mapping map_hilbert(const graph::CommGraph&, const Allocation& alloc, const MapOptions& options) {
  if (!options.parameter.empty()) throw InputError("hilbert: takes no parameter, not '" + options.parameter + "'");
  return detail::lay_along(hilbert_slot_order(alloc));
}

}  // namespace rankmap::mapping
