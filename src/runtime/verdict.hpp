// The root's verdict on one reorder, as the fixed-size bytes broadcast ahead of the permutation.
#pragma once

#include "decide.hpp"

#include <rankmap/types.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace rankmap::runtime {

struct Verdict {
  enum Status : std::int32_t { decided = 0, failed = 1, invalid = 2 };
  std::int32_t status = failed;
  std::int32_t applied = 0;
  double before = 0, after = 0, seconds = 0;
  char algorithm[64] = {};
  char objective[16] = {};
  char note[256] = {};
};
static_assert(sizeof(Verdict) == 368, "docs/runtime.md gives the verdict's size");

/// The verdict of a decision (texts cut to their fields), and one that says why there is none.
Verdict verdict_of(const Decision& decision) noexcept;
Verdict verdict_of(Verdict::Status status, std::string_view note) noexcept;

/// What a decided verdict says, without the permutation.
Decision decision_of(const Verdict& verdict);

/// The size of the broadcast for n tasks: the verdict, then n slots.
std::size_t verdict_bytes(TaskId n) noexcept;

/// Writes `verdict`, and `slot_of` when it is applied, into `bytes` (of verdict_bytes(n)).
void write_verdict(const Verdict& verdict, std::span<const SlotId> slot_of, std::span<char> bytes) noexcept;

/// Reads the verdict from `bytes`, and the permutation into `slot_of` (n slots) when it is applied.
Verdict read_verdict(std::span<const char> bytes, std::span<SlotId> slot_of) noexcept;

}  // namespace rankmap::runtime
