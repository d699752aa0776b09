// A max segment tree over channel loads that also counts the channels at the maximum.
#pragma once

#include <cstddef>
#include <vector>

namespace rankmap::mapping::detail {

/// Channel loads in a max segment tree: a point update is O(log C); the maximum and how many
/// channels carry it (equal loads compare exactly) are O(1).
class MaxTree {
 public:
  explicit MaxTree(const std::vector<double>& values);
  double value(std::size_t i) const { return tree_[size_ + i]; }
  void set(std::size_t i, double v);
  double max() const { return tree_[1]; }
  std::size_t count_at_max() const { return count_[1]; }
  std::size_t argmax() const;

 private:
  void pull(std::size_t i);
  std::size_t size_ = 1;
  std::vector<double> tree_;
  std::vector<std::size_t> count_;
};

}  // namespace rankmap::mapping::detail
