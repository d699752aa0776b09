// The fields that a reorder's Decision, its broadcast Verdict and its ReorderOutcome share, listed once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace rankmap::runtime::detail {

template <typename To, typename From>
  requires std::is_assignable_v<To&, const From&>
void assign_field(To& to, const From& from) {
  to = from;
}

/// Into the verdict's fixed-size texts: cut to the field, always terminated.
template <std::size_t N>
void assign_field(char (&to)[N], std::string_view from) noexcept {
  const std::size_t n = std::min(from.size(), N - 1);
  std::memcpy(to, from.data(), n);
  to[n] = '\0';
}

/// Copies whether the candidate was applied, what produced it, the objective before and after, the
/// time and the note from one of the three structs to another. Not the permutation: a Decision
/// always has one, a Verdict carries it apart, and an outcome only when applied. The texts of a
/// Verdict are terminated (read_verdict makes sure of it).
template <typename To, typename From>
void copy_summary(To& to, const From& from) {
  assign_field(to.applied, from.applied);
  assign_field(to.algorithm, from.algorithm);
  assign_field(to.objective, from.objective);
  assign_field(to.note, from.note);
  assign_field(to.before, from.before);
  assign_field(to.after, from.after);
  assign_field(to.seconds, from.seconds);
}

}  // namespace rankmap::runtime::detail
