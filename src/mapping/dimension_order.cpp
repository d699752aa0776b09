// Parsing dimension traversal orders and sorting an allocation's slots by one.
#include "dimension_order.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace rankmap::mapping::detail {

namespace {

std::string expected_letters(int ndims) {
  std::string s;
  for (int d = 0; d < ndims; ++d) s += static_cast<char>('A' + d);
  return s + "T";
}

}  // namespace

DimensionOrder parse_dimension_order(std::string_view text, int ndims, std::string_view what) {
  const auto fail = [&](const std::string& why) -> DimensionOrder {
    throw InputError(std::string(what) + ": '" + std::string(text) + "' " + why + " (expected an order of the letters " +
                     expected_letters(ndims) + ", e.g. " + expected_letters(ndims) + ")");
  };
  DimensionOrder order;
  std::vector<bool> seen(static_cast<std::size_t>(ndims) + 1, false);
  for (char raw : text) {
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(raw)));
    int key = 0;
    if (c == 'T') key = kSlotKey;
    else if (c >= 'A' && c < 'A' + ndims) key = c - 'A';
    else return fail(std::string("has the letter '") + raw + "', which names no dimension of this grid");
    const std::size_t flag = key == kSlotKey ? static_cast<std::size_t>(ndims) : static_cast<std::size_t>(key);
    if (seen[flag]) return fail(std::string("lists '") + c + "' twice");
    seen[flag] = true;
    order.push_back(key);
  }
  for (int d = 0; d < ndims; ++d)
    if (!seen[d]) return fail(std::string("does not list '") + static_cast<char>('A' + d) + "'");
  if (!seen[ndims]) order.push_back(kSlotKey);
  return order;
}

DimensionOrder default_dimension_order(int ndims) {
  DimensionOrder order;
  for (int d = 0; d < ndims; ++d) order.push_back(d);
  order.push_back(kSlotKey);
  return order;
}

std::string to_string(const DimensionOrder& order) {
  std::string s;
  for (int key : order) s += key == kSlotKey ? 'T' : static_cast<char>('A' + key);
  return s;
}

std::vector<SlotId> slots_in_dimension_order(const topology::Allocation& alloc, const DimensionOrder& order) {
  const topology::Grid& grid = alloc.grid();
  // A mixed-radix key: at most 2^31 nodes times 2^31 slots per node fits in 64 bits.
  std::vector<std::pair<std::uint64_t, SlotId>> keyed;
  keyed.reserve(static_cast<std::size_t>(alloc.num_slots()));
  for (int node = 0; node < alloc.num_nodes(); ++node) {
    const topology::Coords c = grid.coords_of(alloc.node(node));
    const auto slots = alloc.slots_of_node(node);
    for (std::size_t t = 0; t < slots.size(); ++t) {
      std::uint64_t key = 0;
      for (int k : order) {
        if (k == kSlotKey) key = key * static_cast<std::uint64_t>(alloc.max_ppn()) + t;
        else key = key * static_cast<std::uint64_t>(grid.extent(k)) + static_cast<std::uint64_t>(c[k]);
      }
      keyed.emplace_back(key, slots[t]);
    }
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<SlotId> sorted(keyed.size());
  for (std::size_t i = 0; i < keyed.size(); ++i) sorted[i] = keyed[i].second;
  return sorted;
}

}  // namespace rankmap::mapping::detail
