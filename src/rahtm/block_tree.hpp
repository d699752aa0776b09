// The hierarchy of boxes RAHTM maps onto: the grid halved level by level into 2-ary n-cubes.
#pragma once

#include "cube_problem.hpp"

#include <rankmap/topology/allocation.hpp>

#include <vector>

namespace rankmap::rahtm {

/// Grid nodes lo[d] .. lo[d] + len[d] - 1 in every dimension d, without wrapping.
struct Box {
  topology::Coords lo{};
  topology::Coords len{};
};

/// One box of the hierarchy. A block whose box holds one allocated node is a leaf; any other
/// block halves some of its dimensions, giving a 2-ary n-cube of sub-boxes (its children).
struct Block {
  Box box;
  int depth = 0;
  int parent = -1;
  int vertex_in_parent = 0;
  std::int64_t slots = 0;              ///< allocated slots inside the box
  int alloc_node = -1;                 ///< leaves: the dense node index in the allocation
  std::vector<int> split_dims;         ///< grid dimension of cube bit i
  std::vector<int> child_of_vertex;    ///< 2^n entries: a block index, or -1 for a box without slots
  std::vector<Box> vertex_box;         ///< the sub-box of every cube vertex, occupied or not
  std::vector<double> capacity;        ///< the cube's channel capacities, see CubeProblem

  bool is_leaf() const { return alloc_node >= 0; }
};

struct SplitPolicy {
  /// The most dimensions one level may halve (the cube size of its MILP).
  int max_cube_dims = 4;
  /// When more dimensions could be halved than max_cube_dims allows and some are shorter than
  /// the others (BG/Q's E of 2 next to sides of 4), halve the short ones first: the grid becomes
  /// even sub-grids that are merged at the top. Otherwise the longest dimensions go first and
  /// the short ones are halved at the bottom of the hierarchy.
  bool short_dims_first = false;
};

/// Splits the whole grid, dropping sub-boxes that hold no slot of the allocation. A side that
/// is not a power of two is cut at the largest power of two below it (6 = 4 + 2, 3 = 2 + 1),
/// so that as many sub-boxes as possible are even.
class BlockTree {
 public:
  BlockTree(const topology::Allocation& alloc, const SplitPolicy& policy);

  const Block& block(int b) const { return blocks_[b]; }
  int num_blocks() const { return static_cast<int>(blocks_.size()); }
  int root() const { return 0; }
  int height() const { return static_cast<int>(by_depth_.size()); }
  const std::vector<int>& blocks_at_depth(int depth) const { return by_depth_[depth]; }
  const std::vector<int>& leaves() const { return leaves_; }
  /// The leaf of every dense allocation node.
  int leaf_of_node(int alloc_node) const { return leaf_of_node_[alloc_node]; }

  /// True when every level is uniform: all blocks of a depth split the same number of
  /// dimensions, hold the same number of slots and have every child; leaves all at the bottom.
  bool is_regular() const { return regular_; }

  /// The cube of a block, ready for its clusters: dims, capacities, vertex sizes.
  CubeProblem cube_of(int b) const;

 private:
  int build(const topology::Allocation& alloc, const Box& box, std::vector<int> nodes, int depth,
            const SplitPolicy& policy);
  std::vector<int> choose_split(const Box& box, const SplitPolicy& policy) const;
  void check_regular();

  topology::Grid grid_;
  std::vector<Block> blocks_;
  std::vector<std::vector<int>> by_depth_;
  std::vector<int> leaves_;
  std::vector<int> leaf_of_node_;
  bool regular_ = false;
};

/// Number of nodes in a box.
std::int64_t box_volume(const Box& box, int ndims);

}  // namespace rankmap::rahtm
