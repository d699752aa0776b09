// The max segment tree of channel loads: build, point update with early stop, and argmax.
#include "max_tree.hpp"

#include <algorithm>
#include <limits>

namespace rankmap::mapping::detail {

MaxTree::MaxTree(const std::vector<double>& values) {
  while (size_ < values.size()) size_ *= 2;
  tree_.assign(2 * size_, -std::numeric_limits<double>::infinity());
  count_.assign(2 * size_, 0);
  std::copy(values.begin(), values.end(), tree_.begin() + static_cast<std::ptrdiff_t>(size_));
  std::fill_n(count_.begin() + static_cast<std::ptrdiff_t>(size_), values.size(), 1);
  for (std::size_t i = size_ - 1; i >= 1; --i) pull(i);
}

void MaxTree::pull(std::size_t i) {
  const double left = tree_[2 * i], right = tree_[2 * i + 1];
  tree_[i] = std::max(left, right);
  count_[i] = (left == tree_[i] ? count_[2 * i] : 0) + (right == tree_[i] ? count_[2 * i + 1] : 0);
}

void MaxTree::set(std::size_t i, double v) {
  i += size_;
  tree_[i] = v;
  for (i /= 2; i >= 1; i /= 2) {
    const double old_max = tree_[i];
    const std::size_t old_count = count_[i];
    pull(i);
    if (tree_[i] == old_max && count_[i] == old_count) break;  // nothing above changes
  }
}

std::size_t MaxTree::argmax() const {
  std::size_t i = 1;
  while (i < size_) i = tree_[2 * i] >= tree_[2 * i + 1] ? 2 * i : 2 * i + 1;
  return i - size_;
}

}  // namespace rankmap::mapping::detail
