// Communication of application kernels: 2D FFT transposes and the NAS CG, BT and SP benchmarks.
#include "graph/pattern_builders.hpp"

#include <bit>

namespace rankmap::graph::patterns {

// A 2D FFT on a rows x cols process grid transposes twice per step: an all-to-all inside each
// row sub-communicator and one inside each column sub-communicator (rank = row * cols + col).
CommGraph fft2d(int rows, int cols, double bytes) {
  const TaskId ranks = rows * cols;
  EdgeList edges(static_cast<std::int64_t>(ranks) * (rows + cols - 2));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const TaskId me = r * cols + c;
      for (int other = 0; other < cols; ++other) edges.add(me, r * cols + other, bytes);
      for (int other = 0; other < rows; ++other) edges.add(me, other * cols + c, bytes);
    }
  return std::move(edges).build(ranks);
}

// NPB CG (setup_submatrix_info) on a rows x cols grid, rank = row * cols + col. The partial
// matrix-vector products are summed across each row by recursive doubling (partners col xor
// cols/2, col xor cols/4, ..., col xor 1), then every rank swaps its piece with its transpose
// partner. Each of these messages carries about one vector segment, so all weigh `bytes`; the
// scalar reductions along the same partners are negligible and left out.
CommGraph nas_cg(int rows, int cols, double bytes) {
  const TaskId ranks = rows * cols;
  EdgeList edges(static_cast<std::int64_t>(ranks) * (std::bit_width(static_cast<unsigned>(cols)) + 1));
  for (TaskId me = 0; me < ranks; ++me) {
    const int row = me / cols, col = me % cols;
    for (int div = cols; div >= 2; div /= 2) {
      const int partner_col = (col + div / 2) % div + col / div * div;
      edges.add(me, row * cols + partner_col, bytes);
    }
    if (cols > 1) {
      const TaskId transpose =
          cols == rows ? (me % rows) * rows + me / rows : 2 * ((me / 2 % rows) * rows + me / 2 / rows) + me % 2;
      edges.add(me, transpose, bytes);
    }
  }
  return std::move(edges).build(ranks);
}

// NPB BT and SP (make_set) use the multi-partition scheme on q x q ranks: rank (i, j) with
// i = rank mod q, j = rank / q owns one cell on each diagonal of a q x q x q cell grid, and in
// each direction talks to one successor and one predecessor:
//   x: (i+1, j) / (i-1, j)    y: (i, j+1) / (i, j-1)    z: (i-1, j+1) / (i+1, j-1)   (mod q).
// copy_faces sends one message of `bytes` to all six; the line solves add `forward` x bytes
// towards each successor (forward elimination) and `backward` x bytes towards each predecessor.
CommGraph nas_multipartition(int q, double bytes, double forward, double backward) {
  const TaskId ranks = q * q;
  EdgeList edges(6 * static_cast<std::int64_t>(ranks));
  const auto at = [q](int i, int j) { return ((j % q + q) % q) * q + (i % q + q) % q; };
  for (TaskId me = 0; me < ranks; ++me) {
    const int i = me % q, j = me / q;
    const TaskId successors[3] = {at(i + 1, j), at(i, j + 1), at(i - 1, j + 1)};
    const TaskId predecessors[3] = {at(i - 1, j), at(i, j - 1), at(i + 1, j - 1)};
    for (int d = 0; d < 3; ++d) {
      edges.add(me, successors[d], bytes * (1 + forward));
      edges.add(me, predecessors[d], bytes * (1 + backward));
    }
  }
  return std::move(edges).build(ranks);
}

}  // namespace rankmap::graph::patterns
