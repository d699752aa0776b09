// Steps, their classes, and the job's phases found from them.
#include "step_phases.hpp"

#include <algorithm>
#include <map>

namespace rankmap::runtime {

namespace {

/// splitmix64's finaliser: every input bit reaches every output bit.
std::uint64_t mix(std::uint64_t x) noexcept {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// The hash of a step's set of peers, whatever their order and repetitions.
template <typename Send>
std::uint64_t peer_set_signature(std::vector<Send>& sends) {
  std::sort(sends.begin(), sends.end(), [](const Send& a, const Send& b) { return a.peer < b.peer; });
  std::uint64_t h = 0;
  int last = -1;
  for (const Send& s : sends)
    if (s.peer != last) h = mix(h ^ static_cast<std::uint64_t>(static_cast<std::uint32_t>(s.peer))), last = s.peer;
  return h;
}

/// share * count / total without overflow.
std::uint64_t scaled(std::uint64_t share, std::uint64_t count, std::uint64_t total) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(share) * count / total);
}

struct PhaseCount {
  int phase;
  std::uint64_t steps;
};

/// For each class, the phases its recorded steps fell in and how often.
std::vector<std::vector<PhaseCount>> phases_per_class(const StepLog& log, const StepPhases& phases) {
  std::vector<std::pair<std::uint32_t, int>> seen;
  seen.reserve(log.recorded().size());
  for (std::size_t k = 0; k < log.recorded().size(); ++k)
    seen.emplace_back(log.recorded()[k], k < phases.phase.size() ? phases.phase[k] : phases.largest);
  std::sort(seen.begin(), seen.end());
  std::vector<std::vector<PhaseCount>> out(log.classes());
  for (const auto& [klass, phase] : seen) {
    auto& counts = out[klass];
    if (counts.empty() || counts.back().phase != phase) counts.push_back({phase, 0});
    ++counts.back().steps;
  }
  return out;
}

/// Adds one class's traffic to `edges`, split over `counts` (see phased_edges).
void split_class(const PeerCounts& traffic, const std::vector<PhaseCount>& counts,
                 std::map<std::pair<int, int>, PeerTraffic>& edges) {
  std::uint64_t total = 0;
  std::size_t most = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    total += counts[i].steps;
    if (counts[i].steps > counts[most].steps) most = i;
  }
  traffic.for_each([&](int peer, const PeerTraffic& sent) {
    PeerTraffic given;
    for (const PhaseCount& c : counts) {
      PeerTraffic& e = edges[{c.phase, peer}];
      const PeerTraffic share{scaled(sent.bytes, c.steps, total), scaled(sent.messages, c.steps, total)};
      e.bytes += share.bytes, e.messages += share.messages;
      given.bytes += share.bytes, given.messages += share.messages;
    }
    PeerTraffic& rest = edges[{counts[most].phase, peer}];
    rest.bytes += sent.bytes - given.bytes;
    rest.messages += sent.messages - given.messages;
  });
}

}  // namespace

void StepLog::complete() {
  if (current_.empty()) return;
  const std::uint64_t signature = peer_set_signature(current_);
  const auto [it, fresh] = class_of_.try_emplace(signature, static_cast<std::uint32_t>(signatures_.size()));
  if (fresh) {
    signatures_.push_back(signature);
    traffic_.emplace_back();
  }
  PeerCounts& traffic = traffic_[it->second];
  for (const Send& s : current_) traffic.add(s.peer, s.traffic.bytes, s.traffic.messages);
  if (recorded_.size() < kRecordedSteps) recorded_.push_back(it->second);
  ++steps_;
  current_.clear();
}

// The rank is hashed apart from the peers (bit 32 set): with one hash for both, a ring's steps to the
// right and to the left would have equal signatures, made of the same pairs.
std::uint64_t step_signature(int rank, std::uint64_t signature) noexcept {
  return mix(signature ^ mix((std::uint64_t{1} << 32) | static_cast<std::uint32_t>(rank)));
}

StepPhases phases_of_steps(std::span<const std::uint64_t> signatures, int max_phases) {
  StepPhases out;
  int found = 0;
  std::unordered_map<std::uint64_t, int> phase_of;
  std::vector<std::size_t> steps_in(1, 0);  // steps_in[p]: steps of phase p; [0]: beyond max_phases
  out.phase.reserve(signatures.size());
  for (const std::uint64_t s : signatures) {
    int phase = 0;
    if (const auto it = phase_of.find(s); it != phase_of.end())
      phase = it->second;
    else if (found < max_phases) {
      phase = phase_of[s] = ++found;
      steps_in.push_back(0);
    }
    ++steps_in[static_cast<std::size_t>(phase)];
    out.phase.push_back(phase);
  }
  for (int p = 1; p <= found; ++p)
    if (steps_in[static_cast<std::size_t>(p)] > steps_in[static_cast<std::size_t>(out.largest)]) out.largest = p;
  for (int& p : out.phase)
    if (p == 0) p = out.largest;
  out.phases = std::max(found, 1);
  return out;
}

std::vector<EdgeCount> phased_edges(const StepLog& log, const StepPhases& phases) {
  const auto counts = phases_per_class(log, phases);
  std::map<std::pair<int, int>, PeerTraffic> edges;
  for (std::size_t klass = 0; klass < log.classes(); ++klass) {
    const std::vector<PhaseCount> unrecorded{{phases.largest, 1}};
    split_class(log.traffic(klass), counts[klass].empty() ? unrecorded : counts[klass], edges);
  }
  std::vector<EdgeCount> out;
  out.reserve(edges.size());
  for (const auto& [key, traffic] : edges) out.push_back({key.first, key.second, traffic});
  return out;
}

}  // namespace rankmap::runtime
