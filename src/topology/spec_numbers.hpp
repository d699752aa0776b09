// Small parsing and arithmetic helpers shared by the network spec parsers (fattree:, dragonfly:).
#pragma once

#include <rankmap/types.hpp>

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::topology::detail {

/// `text` cut at every `separator` (empty pieces kept, so that `4,,2` is caught as a bad count).
inline std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t pos = 0;;) {
    const std::size_t end = text.find(separator, pos);
    parts.push_back(text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
    if (end == std::string_view::npos) return parts;
    pos = end + 1;
  }
}

/// A positive decimal count of at most 2^20; throws InputError naming the spec and what it counts.
inline int spec_count(std::string_view text, const std::string& spec, std::string_view what) {
  int value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size() || value < 1 || value > (1 << 20))
    throw InputError("topology '" + spec + "': " + std::string(what) + ": '" + std::string(text) +
                     "' is not a whole number from 1 to 1048576");
  return value;
}

/// a * b, both positive; throws InputError(`message`) if the product exceeds `limit`.
inline std::int64_t checked_product(std::int64_t a, std::int64_t b, std::int64_t limit, const char* message) {
  if (a > limit / b) throw InputError(message);
  return a * b;
}

}  // namespace rankmap::topology::detail
