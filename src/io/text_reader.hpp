// Line-by-line reading of the text formats (graphs, mapping files), with bounded memory and located errors.
#pragma once

#include <rankmap/types.hpp>

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::io {

/// No reader accepts more tasks than this. Header counts are never trusted for allocation, but
/// a task count sizes the graph's index arrays, so it needs a ceiling of its own.
inline constexpr std::int64_t kMaxTasks = std::int64_t{1} << 26;
/// Lines longer than this are refused instead of buffered.
inline constexpr std::size_t kMaxLineLength = std::size_t{1} << 20;
/// How much to reserve up front from a declared count; the rest grows with the actual content.
inline constexpr std::size_t kMaxReserve = std::size_t{1} << 16;

/// Reads lines in fixed-size chunks, so a file without newlines cannot make it buffer without bound.
class TextReader {
 public:
  TextReader(std::istream& in, std::string_view source);

  /// The next line without its line ending; false at the end of the input.
  /// Throws InputError for an over-long line, a NUL byte or a read error.
  bool next_line(std::string_view& line);
  /// 1-based number of the line last returned.
  std::int64_t line_number() const noexcept { return line_number_; }
  const std::string& source() const noexcept { return source_; }

  /// Throws InputError "source:line: message".
  [[noreturn]] void fail(const std::string& message) const;
  /// Throws InputError "source: message", for problems that belong to no single line.
  [[noreturn]] void fail_file(const std::string& message) const;

 private:
  bool fill();

  std::istream& in_;
  std::string source_;
  std::vector<char> chunk_;
  std::size_t pos_ = 0;
  std::size_t end_ = 0;
  std::string line_;
  std::int64_t line_number_ = 0;
};

/// Splits a line into fields separated by blanks (spaces, tabs, carriage returns).
class Fields {
 public:
  explicit Fields(std::string_view line) : rest_(line) {}
  /// The next field, or nothing when the line is used up.
  std::optional<std::string_view> next();
  /// True when only blanks remain.
  bool done();

 private:
  std::string_view rest_;
};

/// The line up to the first `marker` (a comment start).
std::string_view strip_comment(std::string_view line, char marker);
/// True if the line holds nothing but blanks.
bool is_blank(std::string_view line);

/// A whole decimal integer (an optional sign, then digits), or nothing.
std::optional<std::int64_t> parse_int(std::string_view text);
/// A finite decimal number, or nothing (no inf, no nan).
std::optional<double> parse_number(std::string_view text);
/// Exactly 16 hex digits, as written by hash_to_hex, or nothing.
std::optional<std::uint64_t> parse_hash(std::string_view text);
/// Case-insensitive ASCII comparison.
bool equals_ignoring_case(std::string_view a, std::string_view b);
/// The text quoted for an error message, shortened when long and with control bytes escaped.
std::string quoted(std::string_view text);

}  // namespace rankmap::io
