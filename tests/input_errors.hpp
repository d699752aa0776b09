// Shared helpers for the tests of readers and parsers: a text parsed as if it were a file, and the
// InputError message a call throws.
#pragma once

#include <rankmap/types.hpp>

#include <sstream>
#include <string>
#include <string_view>
#include <utility>

namespace rankmap::testing {

/// `parser(stream, source)` on a stream holding `text`, so that error messages name `source`.
auto parse_text(auto&& parser, const std::string& text, std::string_view source) {
  std::istringstream in(text);
  return parser(in, source);
}

/// The message of the InputError that calling `f` throws, or "no error" if it returns.
std::string input_error_of(auto&& f) {
  try {
    std::forward<decltype(f)>(f)();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace rankmap::testing
