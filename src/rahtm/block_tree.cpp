// Recursive halving of the grid into 2-ary n-cubes of sub-boxes, and the capacities between them.
#include "block_tree.hpp"

#include <algorithm>
#include <bit>
#include <numeric>

namespace rankmap::rahtm {

namespace {

/// Where a side is cut: in half when it is a power of two, else at the largest power of two below.
int cut_point(int len) { return std::has_single_bit(static_cast<unsigned>(len)) ? len / 2 : std::bit_floor(static_cast<unsigned>(len)); }

/// How many times a side can still be cut before it reaches 1.
int levels_left(int len) { return len <= 1 ? 0 : std::bit_width(static_cast<unsigned>(len - 1)); }

Box sub_box(const Box& box, const std::vector<int>& split_dims, int vertex) {
  Box sub = box;
  for (std::size_t i = 0; i < split_dims.size(); ++i) {
    const int d = split_dims[i];
    const int cut = cut_point(box.len[d]);
    if (vertex >> i & 1) sub.lo[d] += cut, sub.len[d] -= cut;
    else sub.len[d] = cut;
  }
  return sub;
}

bool inside(const Box& box, const topology::Coords& c, int ndims) {
  for (int d = 0; d < ndims; ++d)
    if (c[d] < box.lo[d] || c[d] >= box.lo[d] + box.len[d]) return false;
  return true;
}

}  // namespace

std::int64_t box_volume(const Box& box, int ndims) {
  std::int64_t v = 1;
  for (int d = 0; d < ndims; ++d) v *= box.len[d];
  return v;
}

BlockTree::BlockTree(const topology::Allocation& alloc, const SplitPolicy& policy) : grid_(alloc.grid()) {
  Box whole;
  for (int d = 0; d < grid_.ndims(); ++d) whole.len[d] = grid_.extent(d);
  std::vector<int> nodes(static_cast<std::size_t>(alloc.num_nodes()));
  std::iota(nodes.begin(), nodes.end(), 0);
  leaf_of_node_.assign(nodes.size(), -1);
  build(alloc, whole, std::move(nodes), 0, policy);
  check_regular();
}

std::vector<int> BlockTree::choose_split(const Box& box, const SplitPolicy& policy) const {
  std::vector<int> dims;
  for (int d = 0; d < grid_.ndims(); ++d)
    if (box.len[d] > 1) dims.push_back(d);
  // Longest first (most levels left), lowest dimension first among equals.
  std::stable_sort(dims.begin(), dims.end(),
                   [&](int a, int b) { return levels_left(box.len[a]) > levels_left(box.len[b]); });
  if (static_cast<int>(dims.size()) <= policy.max_cube_dims) return dims;
  if (policy.short_dims_first && levels_left(box.len[dims.front()]) > levels_left(box.len[dims.back()])) {
    std::vector<int> short_dims;
    for (int d : dims)
      if (levels_left(box.len[d]) < levels_left(box.len[dims.front()])) short_dims.push_back(d);
    if (static_cast<int>(short_dims.size()) > policy.max_cube_dims) short_dims.resize(policy.max_cube_dims);
    std::sort(short_dims.begin(), short_dims.end());
    return short_dims;
  }
  dims.resize(policy.max_cube_dims);
  std::sort(dims.begin(), dims.end());
  return dims;
}

int BlockTree::build(const topology::Allocation& alloc, const Box& box, std::vector<int> nodes, int depth,
                     const SplitPolicy& policy) {
  const int index = num_blocks();
  blocks_.emplace_back();
  if (static_cast<int>(by_depth_.size()) <= depth) by_depth_.resize(depth + 1);
  by_depth_[depth].push_back(index);
  Block b;
  b.box = box;
  b.depth = depth;
  for (int n : nodes) b.slots += static_cast<std::int64_t>(alloc.slots_of_node(n).size());
  if (nodes.size() == 1) {
    b.alloc_node = nodes.front();
    b.box.lo = grid_.coords_of(alloc.node(nodes.front()));
    for (int d = 0; d < grid_.ndims(); ++d) b.box.len[d] = 1;
    leaf_of_node_[nodes.front()] = index;
    leaves_.push_back(index);
    blocks_[index] = std::move(b);
    return index;
  }
  b.split_dims = choose_split(box, policy);
  const int n = static_cast<int>(b.split_dims.size());
  std::vector<std::vector<int>> nodes_of_vertex(std::size_t{1} << n);
  for (int v = 0; v < (1 << n); ++v) b.vertex_box.push_back(sub_box(box, b.split_dims, v));
  for (int node : nodes) {
    const topology::Coords c = grid_.coords_of(alloc.node(node));
    for (int v = 0; v < (1 << n); ++v)
      if (inside(b.vertex_box[v], c, grid_.ndims())) {
        nodes_of_vertex[v].push_back(node);
        break;
      }
  }
  // The links between two sub-boxes that differ in split dimension d: one per cell of their
  // common face, two when the block spans a whole torus ring (the direct and the wrap-around
  // link, or the double-capacity link of a torus of extent 2).
  b.capacity.resize(static_cast<std::size_t>(n) << n);
  for (int v = 0; v < (1 << n); ++v)
    for (int i = 0; i < n; ++i) {
      const int d = b.split_dims[i];
      const double face = static_cast<double>(box_volume(b.vertex_box[v], grid_.ndims()) / b.vertex_box[v].len[d]);
      const bool whole_ring = grid_.is_torus(d) && box.len[d] == grid_.extent(d);
      b.capacity[v * n + i] = face * (whole_ring ? 2.0 : 1.0);
    }
  b.child_of_vertex.assign(std::size_t{1} << n, -1);
  blocks_[index] = b;
  for (int v = 0; v < (1 << n); ++v) {
    if (nodes_of_vertex[v].empty()) continue;
    const int child = build(alloc, b.vertex_box[v], std::move(nodes_of_vertex[v]), depth + 1, policy);
    blocks_[child].parent = index;
    blocks_[child].vertex_in_parent = v;
    blocks_[index].child_of_vertex[v] = child;
  }
  return index;
}

void BlockTree::check_regular() {
  regular_ = true;
  for (int depth = 0; depth < height(); ++depth) {
    const Block& first = blocks_[by_depth_[depth].front()];
    for (int b : by_depth_[depth]) {
      const Block& block = blocks_[b];
      const bool same = block.slots == first.slots && block.split_dims.size() == first.split_dims.size() &&
                        block.is_leaf() == first.is_leaf() &&
                        std::count(block.child_of_vertex.begin(), block.child_of_vertex.end(), -1) == 0;
      if (!same) regular_ = false;
    }
  }
}

CubeProblem BlockTree::cube_of(int b) const {
  const Block& block = blocks_[b];
  CubeProblem p;
  p.dims = static_cast<int>(block.split_dims.size());
  p.capacity = block.capacity;
  p.vertex_size.assign(block.child_of_vertex.size(), 0);
  for (std::size_t v = 0; v < block.child_of_vertex.size(); ++v)
    if (block.child_of_vertex[v] >= 0) p.vertex_size[v] = blocks_[block.child_of_vertex[v]].slots;
  return p;
}

}  // namespace rankmap::rahtm
