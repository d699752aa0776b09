// Counting sends and collectives per thread, and merging the threads' counts.
#include "traffic_counts.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace rankmap::runtime {

namespace {

constexpr std::size_t kInitialSlots = 16;

}  // namespace

PeerCounts::PeerCounts() : keys_(kInitialSlots, -1), values_(kInitialSlots) {}

std::size_t PeerCounts::slot_of(int peer) const {
  const std::size_t mask = keys_.size() - 1;
  std::size_t i = hash_peer(peer, mask);
  while (keys_[i] >= 0 && keys_[i] != peer) i = (i + 1) & mask;
  return i;
}

void PeerCounts::grow() {
  std::vector<int> keys(keys_.size() * 2, -1);
  std::vector<PeerTraffic> values(keys.size());
  keys.swap(keys_);
  values.swap(values_);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] < 0) continue;
    const std::size_t j = slot_of(keys[i]);
    keys_[j] = keys[i];
    values_[j] = values[i];
  }
}

/// Another peer than the last one: found or inserted, and remembered as the last one.
void PeerCounts::add_elsewhere(int peer, std::uint64_t bytes, std::uint64_t messages) {
  if (4 * (used_ + 1) > 3 * keys_.size()) grow();
  const std::size_t i = slot_of(peer);
  if (keys_[i] < 0) {
    keys_[i] = peer;
    ++used_;
  }
  values_[i].bytes += bytes;
  values_[i].messages += messages;
  last_ = i;
}

std::string_view collective_name(CollectiveOp op) {
  static constexpr std::string_view kNames[kCollectiveOps] = {
      "barrier",  "bcast",     "reduce",    "allreduce",      "gather",
      "gatherv",  "scatter",   "scatterv",  "allgather",      "allgatherv",
      "alltoall", "alltoallv", "alltoallw", "reduce_scatter", "reduce_scatter_block",
      "scan",     "exscan"};
  return kNames[static_cast<int>(op)];
}

void ThreadTraffic::switch_phase(int phase) {
  if (static_cast<std::size_t>(phase) > phases_.size()) phases_.resize(static_cast<std::size_t>(phase));
  current_phase_ = phase;
  current_ = &phases_[static_cast<std::size_t>(phase) - 1];
}

void ThreadTraffic::add_collective(CollectiveOp op, int comm_size, std::uint64_t bytes) {
  // A program uses a handful of (operation, size) pairs, so a linear search is the fast path.
  for (CollectiveCount& c : collectives_) {
    if (c.op == op && c.comm_size == comm_size) {
      ++c.calls;
      c.bytes += bytes;
      return;
    }
  }
  collectives_.push_back({op, comm_size, 1, bytes});
}

ThreadTraffic& ProcessTraffic::add_thread() {
  std::lock_guard lock(mutex_);
  threads_.push_back(std::make_unique<ThreadTraffic>());
  return *threads_.back();
}

std::vector<EdgeCount> ProcessTraffic::edges() const {
  std::lock_guard lock(mutex_);
  std::map<std::pair<int, int>, PeerTraffic> merged;
  for (const auto& thread : threads_) {
    for (std::size_t k = 0; k < thread->phases_.size(); ++k) {
      thread->phases_[k].for_each([&](int peer, const PeerTraffic& t) {
        PeerTraffic& sum = merged[{static_cast<int>(k) + 1, peer}];
        sum.bytes += t.bytes;
        sum.messages += t.messages;
      });
    }
  }
  std::vector<EdgeCount> out;
  out.reserve(merged.size());
  for (const auto& [key, traffic] : merged) out.push_back({key.first, key.second, traffic});
  return out;
}

std::vector<CollectiveCount> ProcessTraffic::collectives() const {
  std::lock_guard lock(mutex_);
  std::map<std::pair<int, int>, CollectiveCount> merged;
  for (const auto& thread : threads_) {
    for (const CollectiveCount& c : thread->collectives_) {
      CollectiveCount& sum = merged[{static_cast<int>(c.op), c.comm_size}];
      sum.op = c.op;
      sum.comm_size = c.comm_size;
      sum.calls += c.calls;
      sum.bytes += c.bytes;
    }
  }
  std::vector<CollectiveCount> out;
  for (const auto& [key, c] : merged) out.push_back(c);
  return out;
}

}  // namespace rankmap::runtime
