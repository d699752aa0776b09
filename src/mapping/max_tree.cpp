// The blocked maximum of channel loads: build, point update, and argmax.
#include "max_tree.hpp"

#include <algorithm>
#include <limits>

namespace rankmap::mapping::detail {

MaxTree::MaxTree(std::vector<double> values) : values_(std::move(values)) {
  const std::size_t blocks = (values_.size() + kBlock - 1) / kBlock;
  while (size_ < blocks) size_ *= 2;
  top_.assign(2 * size_, -std::numeric_limits<double>::infinity());
  count_.assign(2 * size_, 0);
  for (std::size_t b = 0; b < blocks; ++b) rescan(b);
  for (std::size_t i = size_ - 1; i >= 1; --i) pull(i);
}

void MaxTree::rescan(std::size_t block) {
  const std::size_t begin = block * kBlock, end = std::min(values_.size(), begin + kBlock);
  double max = -std::numeric_limits<double>::infinity();
  std::size_t count = 0;
  for (std::size_t i = begin; i < end; ++i) {
    if (values_[i] > max) max = values_[i], count = 0;
    count += values_[i] == max ? 1 : 0;
  }
  top_[size_ + block] = max;
  count_[size_ + block] = count;
}

void MaxTree::pull(std::size_t i) {
  const double left = top_[2 * i], right = top_[2 * i + 1];
  top_[i] = std::max(left, right);
  count_[i] = (left == top_[i] ? count_[2 * i] : 0) + (right == top_[i] ? count_[2 * i + 1] : 0);
}

void MaxTree::pull_up(std::size_t leaf) {
  for (std::size_t i = leaf / 2; i >= 1; i /= 2) {
    const double old_max = top_[i];
    const std::size_t old_count = count_[i];
    pull(i);
    if (top_[i] == old_max && count_[i] == old_count) break;  // nothing above changes
  }
}

void MaxTree::set(std::size_t i, double v) {
  const double old = values_[i];
  values_[i] = v;
  const std::size_t block = i / kBlock, leaf = size_ + block;
  const double block_max = top_[leaf];
  const std::size_t block_count = count_[leaf];
  if (v > block_max) {
    top_[leaf] = v, count_[leaf] = 1;
  } else if (v == block_max) {
    if (old != block_max) ++count_[leaf];
  } else if (old == block_max) {
    if (block_count > 1)
      --count_[leaf];
    else
      rescan(block);
  }
  if (top_[leaf] != block_max || count_[leaf] != block_count) pull_up(leaf);
}

std::size_t MaxTree::argmax() const {
  std::size_t i = 1;
  while (i < size_) i = top_[2 * i] >= top_[2 * i + 1] ? 2 * i : 2 * i + 1;
  const std::size_t begin = (i - size_) * kBlock;
  return static_cast<std::size_t>(
      std::find(values_.begin() + static_cast<std::ptrdiff_t>(begin), values_.end(), top_[i]) - values_.begin());
}

}  // namespace rankmap::mapping::detail
