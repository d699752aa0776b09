// Converting the root's verdict to and from the bytes of its broadcast.
#include "verdict.hpp"

#include "reorder_summary.hpp"

#include <cstring>

namespace rankmap::runtime {

Verdict verdict_of(const Decision& d) noexcept {
  Verdict v;
  v.status = Verdict::decided;
  detail::copy_summary(v, d);
  return v;
}

Verdict verdict_of(Verdict::Status status, std::string_view note) noexcept {
  Verdict v;
  v.status = status;
  detail::assign_field(v.note, note);
  return v;
}

Decision decision_of(const Verdict& v) {
  Decision d;
  detail::copy_summary(d, v);
  return d;
}

std::size_t verdict_bytes(TaskId n) noexcept { return sizeof(Verdict) + sizeof(SlotId) * static_cast<std::size_t>(n); }

void write_verdict(const Verdict& verdict, std::span<const SlotId> slot_of, std::span<char> bytes) noexcept {
  const std::size_t room = (bytes.size() - sizeof verdict) / sizeof(SlotId);
  if (verdict.applied && slot_of.size() != room) {
    const Verdict broken = verdict_of(Verdict::failed, "internal error: a permutation of the wrong size");
    std::memcpy(bytes.data(), &broken, sizeof broken);
    return;
  }
  std::memcpy(bytes.data(), &verdict, sizeof verdict);
  if (verdict.applied) std::memcpy(bytes.data() + sizeof verdict, slot_of.data(), slot_of.size_bytes());
}

Verdict read_verdict(std::span<const char> bytes, std::span<SlotId> slot_of) noexcept {
  Verdict verdict;
  std::memcpy(&verdict, bytes.data(), sizeof verdict);
  verdict.note[sizeof verdict.note - 1] = verdict.algorithm[sizeof verdict.algorithm - 1] =
      verdict.objective[sizeof verdict.objective - 1] = '\0';
  if (verdict.applied && bytes.size() == verdict_bytes(static_cast<TaskId>(slot_of.size())))
    std::memcpy(slot_of.data(), bytes.data() + sizeof verdict, slot_of.size_bytes());
  return verdict;
}

}  // namespace rankmap::runtime
