// Slurm hostlist expressions: `nid[001-032,040],login1` to the host names they stand for.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rankmap::topology {

/// No expression expands to more host names than this, so a short bad value cannot exhaust memory.
inline constexpr std::size_t kMaxHostlistNames = std::size_t{1} << 20;

/// Expands a hostlist expression as Slurm's hostlist parser does: names separated by commas
/// outside brackets; each bracket holds comma-separated numbers and ranges `lo-hi`, and a range
/// keeps the width of its lower bound (`[008-010]` gives 008 009 010); several brackets in one name
/// combine every choice, the last bracket fastest. Names are returned in that order, duplicates
/// kept. Throws InputError naming `what` for an empty name, an unbalanced or nested bracket, a
/// malformed or descending range, or more than kMaxHostlistNames names.
std::vector<std::string> expand_hostlist(std::string_view expression, std::string_view what);

}  // namespace rankmap::topology
