// The profiler's counters: bytes and messages per destination and phase, collectives per size.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

namespace rankmap::runtime {

struct PeerTraffic {
  std::uint64_t bytes = 0;
  std::uint64_t messages = 0;
};

/// Counts per destination rank: an open-addressing table, so memory grows with the number of
/// peers a process talks to, not with the size of the job.
class PeerCounts {
 public:
  PeerCounts();
  void add(int peer, std::uint64_t bytes, std::uint64_t messages) {
    if (keys_[last_] == peer) {
      values_[last_].bytes += bytes;
      values_[last_].messages += messages;
      return;
    }
    add_elsewhere(peer, bytes, messages);
  }
  /// One message to a peer already in the table; false, counting nothing, for a new peer. Inline
  /// and without calls, so that the profiler's fast path needs no stack frame.
  bool add_to_known(int peer, std::uint64_t bytes) noexcept {
    std::size_t i = last_;
    if (keys_[i] != peer) {
      const std::size_t mask = keys_.size() - 1;
      for (i = hash_peer(peer, mask); keys_[i] != peer; i = (i + 1) & mask)
        if (keys_[i] < 0) return false;
      last_ = i;
    }
    values_[i].bytes += bytes;
    ++values_[i].messages;
    return true;
  }
  std::size_t size() const noexcept { return used_; }
  /// Calls f(peer, traffic) for every peer, in no particular order.
  template <typename F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] >= 0) f(keys_[i], values_[i]);
  }

 private:
  /// A multiplicative hash; table sizes are powers of two.
  static std::size_t hash_peer(int peer, std::size_t mask) noexcept {
    return (static_cast<std::size_t>(static_cast<std::uint32_t>(peer)) * 0x9E3779B97F4A7C15ull >> 17) & mask;
  }
  std::size_t slot_of(int peer) const;
  void grow();
  void add_elsewhere(int peer, std::uint64_t bytes, std::uint64_t messages);

  std::vector<int> keys_;  ///< -1 marks an empty slot; never empty, so that keys_[last_] is valid
  std::vector<PeerTraffic> values_;
  std::size_t used_ = 0;
  std::size_t last_ = 0;  ///< the slot of the last peer, which the next message is likely to reuse
};

/// The collectives counted apart from the graph (the neighbourhood ones are in the graph).
enum class CollectiveOp : std::uint8_t {
  barrier,
  bcast,
  reduce,
  allreduce,
  gather,
  gatherv,
  scatter,
  scatterv,
  allgather,
  allgatherv,
  alltoall,
  alltoallv,
  alltoallw,
  reduce_scatter,
  reduce_scatter_block,
  scan,
  exscan,
};
inline constexpr int kCollectiveOps = static_cast<int>(CollectiveOp::exscan) + 1;
std::string_view collective_name(CollectiveOp op);

/// One collective kind on communicators of one size.
struct CollectiveCount {
  CollectiveOp op{};
  int comm_size = 0;
  std::uint64_t calls = 0;
  std::uint64_t bytes = 0;
};

/// One destination in one phase (phases count from 1).
struct EdgeCount {
  int phase = 1;
  int peer = 0;
  PeerTraffic traffic;
};

/// What one thread counted. Only its own thread writes it; it is read after the threads stop.
class ThreadTraffic {
 public:
  void add_send(int phase, int peer, std::uint64_t bytes) {
    if (phase != current_phase_) switch_phase(phase);
    current_->add(peer, bytes, 1);
  }
  /// add_send for the current phase and a known peer only (PeerCounts::add_to_known).
  bool add_known_send(int phase, int peer, std::uint64_t bytes) noexcept {
    return phase == current_phase_ && current_->add_to_known(peer, bytes);
  }
  void add_collective(CollectiveOp op, int comm_size, std::uint64_t bytes);

 private:
  friend class ProcessTraffic;
  void switch_phase(int phase);

  std::vector<PeerCounts> phases_;  ///< phases_[k - 1]: phase k
  int current_phase_ = 0;           ///< the phase of the last send (0 before the first one)
  PeerCounts* current_ = nullptr;   ///< &phases_[current_phase_ - 1]
  std::vector<CollectiveCount> collectives_;
};

/// Every thread's counts in this process. Threads register once; their counts outlive them, so
/// that the totals at MPI_Finalize include threads that have ended.
class ProcessTraffic {
 public:
  /// New counters for the calling thread, which keeps the reference (see profiler.cpp).
  ThreadTraffic& add_thread();
  /// Every thread's sends merged, sorted by phase then peer.
  std::vector<EdgeCount> edges() const;
  /// Every thread's collectives merged, sorted by operation then size.
  std::vector<CollectiveCount> collectives() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<ThreadTraffic>> threads_;
};

}  // namespace rankmap::runtime
