// Chunked line reading, field splitting and strict number parsing for the text readers.
#include "io/text_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace rankmap::io {

namespace {

constexpr std::size_t kChunkSize = std::size_t{1} << 16;

bool is_blank_char(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/// from_chars refuses a leading '+', which Fortran-written files use; accept exactly one.
bool strip_plus(std::string_view& text) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) return false;
  }
  return !text.empty();
}

}  // namespace

TextReader::TextReader(std::istream& in, std::string_view source)
    : in_(in), source_(source), chunk_(kChunkSize) {}

bool TextReader::fill() {
  if (!in_.good()) return false;
  in_.read(chunk_.data(), static_cast<std::streamsize>(chunk_.size()));
  if (in_.bad()) fail_file("read error after line " + std::to_string(line_number_));
  pos_ = 0;
  end_ = static_cast<std::size_t>(in_.gcount());
  return end_ > 0;
}

bool TextReader::next_line(std::string_view& line) {
  line_.clear();
  bool any = false;
  for (;;) {
    if (pos_ == end_ && !fill()) break;
    any = true;
    const char* begin = chunk_.data() + pos_;
    const std::size_t avail = end_ - pos_;
    const void* nl = std::memchr(begin, '\n', avail);
    const std::size_t take = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - begin) : avail;
    if (line_.size() + take > kMaxLineLength) {
      ++line_number_;
      fail("line is longer than " + std::to_string(kMaxLineLength) + " bytes");
    }
    line_.append(begin, take);
    pos_ += take;
    if (nl) {
      ++pos_;
      break;
    }
  }
  if (!any) return false;
  ++line_number_;
  if (line_.find('\0') != std::string::npos) fail("unexpected NUL byte (is this a binary file?)");
  line = line_;
  return true;
}

void TextReader::fail(const std::string& message) const {
  throw InputError(source_ + ":" + std::to_string(line_number_) + ": " + message);
}

void TextReader::fail_file(const std::string& message) const { throw InputError(source_ + ": " + message); }

std::optional<std::string_view> Fields::next() {
  std::size_t i = 0;
  while (i < rest_.size() && is_blank_char(rest_[i])) ++i;
  if (i == rest_.size()) {
    rest_ = {};
    return std::nullopt;
  }
  std::size_t j = i;
  while (j < rest_.size() && !is_blank_char(rest_[j])) ++j;
  const std::string_view field = rest_.substr(i, j - i);
  rest_.remove_prefix(j);
  return field;
}

bool Fields::done() { return is_blank(rest_); }

std::string_view strip_comment(std::string_view line, char marker) {
  return line.substr(0, std::min(line.find(marker), line.size()));
}

bool is_blank(std::string_view line) {
  for (char c : line)
    if (!is_blank_char(c)) return false;
  return true;
}

std::optional<std::int64_t> parse_int(std::string_view text) {
  if (!strip_plus(text)) return std::nullopt;
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> parse_number(std::string_view text) {
  if (!strip_plus(text)) return std::nullopt;
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> parse_hash(std::string_view text) {
  if (text.size() != 16) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

std::string quoted(std::string_view text) {
  constexpr std::size_t kShown = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < kShown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (text.size() > kShown) out += "...";
  return out + "'";
}

}  // namespace rankmap::io
