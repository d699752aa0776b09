// The channel loads with their maximum, how many channels carry it and where it is, kept up to
// date under point updates.
#pragma once

#include <cstddef>
#include <vector>

namespace rankmap::mapping::detail {

/// Channel loads in blocks of kBlock, each block's maximum and its count in a max segment tree
/// over the blocks. A point update is O(1) unless it lowers its block's only maximum (then O(kBlock)),
/// plus O(log(C / kBlock)); the maximum and how many channels carry it (equal loads compare
/// exactly) are O(1), and argmax() finds the lowest channel at the maximum.
///
/// Why blocks, not a segment tree over every channel: the loads are moved in, so the structure adds
/// only a few kilobytes to them. A full tree over the 55,296 channels of torus:16x24x24 took 2 MB,
/// and setting up a swap search on 2,000 scattered nodes spent 13 of its 18 ms faulting that fresh
/// memory in (20 us per page on the machine of bench/results/2026-11-30-s50).
class MaxTree {
 public:
  explicit MaxTree(std::vector<double> values);
  double value(std::size_t i) const { return values_[i]; }
  void set(std::size_t i, double v);
  double max() const { return top_[1]; }
  std::size_t count_at_max() const { return count_[1]; }
  std::size_t argmax() const;

 private:
  static constexpr std::size_t kBlock = 64;
  /// Recomputes the maximum of `block` and its count from the loads.
  void rescan(std::size_t block);
  /// Recomputes the tree above the leaf of a block whose maximum or count changed.
  void pull_up(std::size_t leaf);
  void pull(std::size_t i);
  std::vector<double> values_;
  std::size_t size_ = 1;            ///< leaves of the tree over the blocks (a power of two)
  std::vector<double> top_;         ///< max of each subtree; block b's leaf is size_ + b
  std::vector<std::size_t> count_;  ///< how many channels of the subtree carry its max
};

}  // namespace rankmap::mapping::detail
