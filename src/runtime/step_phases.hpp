// RANKMAP_PROFILE_PHASES=steps: phases found from when each process waits, without the program's help.
#pragma once

#include "traffic_counts.hpp"

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace rankmap::runtime {

/// A process's sends between two completions (a receive, a wait or test that completed, a blocking
/// collective) form one *step*; steps that send nothing are not steps. Step k of the job is every
/// process's k-th step, and steps of the job that connect the same pairs of processes are one phase.
/// A program whose stages wait for each other (a sweep) then has a phase per stage, and one that
/// posts all its messages at once (a halo exchange) has one phase (docs/environment.md).
///
/// StepLog is one process's record. It keeps the sends of the current step and, of each past step,
/// only its *class* (the set of peers it sent to), so that memory grows with the number of distinct
/// steps, not with the length of the run; the class of each of the first kRecordedSteps steps is
/// kept in order. Not thread-safe: the profiler serialises the calls.
class StepLog {
 public:
  static constexpr std::size_t kRecordedSteps = std::size_t{1} << 20;

  void add_send(int peer, std::uint64_t bytes) {
    // Consecutive sends to one peer (a window of messages) are one entry, for complete() to sort.
    if (!add_to_last_peer(peer, bytes)) current_.push_back({peer, {bytes, 1}});
  }
  /// add_send for a send to the same peer as the last one of the current step only; false, counting
  /// nothing, otherwise. Inline and without calls, for the profiler's fast path.
  bool add_to_last_peer(int peer, std::uint64_t bytes) noexcept {
    if (current_.empty() || current_.back().peer != peer) return false;
    current_.back().traffic.bytes += bytes;
    ++current_.back().traffic.messages;
    return true;
  }
  /// A completion: ends the current step if it sent anything.
  void complete();

  std::size_t classes() const noexcept { return signatures_.size(); }
  /// A hash of the class's peers: equal for equal sets of peers.
  std::uint64_t signature(std::size_t klass) const { return signatures_[klass]; }
  /// Everything the steps of the class sent.
  const PeerCounts& traffic(std::size_t klass) const { return traffic_[klass]; }
  /// The class of each step, up to kRecordedSteps of them.
  const std::vector<std::uint32_t>& recorded() const noexcept { return recorded_; }
  std::uint64_t steps() const noexcept { return steps_; }

 private:
  struct Send {
    int peer;
    PeerTraffic traffic;
  };
  std::vector<Send> current_;
  std::unordered_map<std::uint64_t, std::uint32_t> class_of_;
  std::vector<std::uint64_t> signatures_;
  std::vector<PeerCounts> traffic_;
  std::vector<std::uint32_t> recorded_;
  std::uint64_t steps_ = 0;
};

/// What process `rank` adds to the job-wide signature of a step of class signature `signature`;
/// the job's signature of step k is the sum (mod 2^64) over processes, 0 for a process without a k-th step.
std::uint64_t step_signature(int rank, std::uint64_t signature) noexcept;

/// The job's phases: phase[k] (from 1) of step k, numbered by first appearance of the step's
/// signature. Signatures after the first `max_phases` distinct ones join the phase with the most steps.
struct StepPhases {
  std::vector<int> phase;  ///< a step without an entry is in `largest`
  int phases = 1;
  int largest = 1;  ///< the phase with the most steps (the first of them on a tie)
};
StepPhases phases_of_steps(std::span<const std::uint64_t> signatures, int max_phases);

/// The process's sends per phase: each class's traffic split over the phases of its recorded steps
/// in proportion to their number (exactly, in integers: the remainder goes to the class's most
/// frequent phase). A class none of whose steps was recorded goes to the largest phase. Sorted by
/// phase, then peer.
std::vector<EdgeCount> phased_edges(const StepLog& log, const StepPhases& phases);

}  // namespace rankmap::runtime
