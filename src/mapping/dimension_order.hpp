// Dimension traversal orders such as ABCDET (BG/Q style), shared by dimorder and dimorder-best.
#pragma once

#include <rankmap/topology/allocation.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace rankmap::mapping::detail {

/// The key of the slot index within a node, the letter T.
inline constexpr int kSlotKey = -1;

/// Keys from slowest to fastest: a grid dimension 0.. (letters A..) or kSlotKey (T).
using DimensionOrder = std::vector<int>;

/// Parses an order such as ABCDET for a grid of `ndims` dimensions: every letter A.. of the
/// grid once, and T at most once (left out, T is fastest). Lower case is accepted.
/// Throws InputError naming `what` and the expected letters.
DimensionOrder parse_dimension_order(std::string_view text, int ndims, std::string_view what);
/// A B C ... T: the launcher's default order of DESIGN.md §8.
DimensionOrder default_dimension_order(int ndims);
std::string to_string(const DimensionOrder& order);

/// The allocation's slots sorted by their coordinates read in `order`, the last key fastest.
/// A slot's T coordinate is its position among its node's slots. Slots of a partial allocation
/// simply keep their relative order, holes and missing slots are skipped.
std::vector<SlotId> slots_in_dimension_order(const topology::Allocation& alloc, const DimensionOrder& order);

}  // namespace rankmap::mapping::detail
