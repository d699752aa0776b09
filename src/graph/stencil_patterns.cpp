// Halo-exchange stencils on a process grid: 2D 5-point, 3D 7-point and 3D 27-point.
#include "graph/pattern_builders.hpp"

#include <array>

namespace rankmap::graph::patterns {

namespace {

/// Row-major rank of coordinates (dimension 0 slowest), or -1 past a non-periodic edge.
TaskId rank_at(std::span<const int> dims, std::span<const int> coords, bool periodic) {
  std::int64_t rank = 0;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    int c = coords[d];
    if (c < 0 || c >= dims[d]) {
      if (!periodic) return -1;
      c = (c + dims[d]) % dims[d];
    }
    rank = rank * dims[d] + c;
  }
  return static_cast<TaskId>(rank);
}

/// The neighbour offsets: ±1 along each dimension, or every offset in {-1, 0, 1}^n but 0.
std::vector<std::array<int, 3>> offsets(std::size_t ndims, bool diagonals) {
  std::vector<std::array<int, 3>> out;
  if (diagonals) {
    for (int a = -1; a <= 1; ++a)
      for (int b = -1; b <= 1; ++b)
        for (int c = -1; c <= 1; ++c)
          if (a != 0 || b != 0 || c != 0) out.push_back({a, b, c});
  } else {
    for (std::size_t d = 0; d < ndims; ++d)
      for (int step : {-1, 1}) {
        std::array<int, 3> o{};
        o[d] = step;
        out.push_back(o);
      }
  }
  return out;
}

}  // namespace

// Every rank sends one message of `bytes` to each neighbour. On a periodic extent of 2 the
// + and - neighbours coincide and the two messages add up, as they would on the machine.
CommGraph stencil(std::span<const int> dims, bool periodic, bool diagonals, double bytes) {
  std::int64_t ranks = 1;
  for (int d : dims) ranks *= d;
  const auto steps = offsets(dims.size(), diagonals);
  EdgeList edges(ranks * static_cast<std::int64_t>(steps.size()));
  std::array<int, 3> coords{};
  std::array<int, 3> there{};
  for (TaskId t = 0; t < ranks; ++t) {
    TaskId rest = t;
    for (std::size_t d = dims.size(); d-- > 0;) {
      coords[d] = rest % dims[d];
      rest /= dims[d];
    }
    for (const auto& o : steps) {
      for (std::size_t d = 0; d < dims.size(); ++d) there[d] = coords[d] + o[d];
      const TaskId n = rank_at(dims, std::span(there.data(), dims.size()), periodic);
      if (n >= 0) edges.add(t, n, bytes);
    }
  }
  return std::move(edges).build(static_cast<TaskId>(ranks));
}

}  // namespace rankmap::graph::patterns
