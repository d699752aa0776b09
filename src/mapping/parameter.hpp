// Parsing the optional `:N` parameter that several mappers take (a count or a limit).
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include <charconv>
#include <string>
#include <string_view>

namespace rankmap::mapping::detail {

/// The positive integer after ':' in `<algorithm>:N`, or `fallback` when there is none.
/// Throws InputError naming the algorithm for anything else.
inline long long count_parameter(const MapOptions& options, std::string_view algorithm, long long fallback) {
  const std::string& text = options.parameter;
  if (text.empty()) return fallback;
  long long value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size() || value < 1)
    throw InputError(std::string(algorithm) + ": parameter '" + text + "' is not a positive integer");
  return value;
}

}  // namespace rankmap::mapping::detail
