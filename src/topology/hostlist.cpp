// Expanding Slurm hostlist expressions with bounded output.
#include <rankmap/topology/hostlist.hpp>

#include <rankmap/types.hpp>

#include <cstdint>

namespace rankmap::topology {

namespace {

constexpr int kMaxDigits = 9;  // keeps every bound within int64 arithmetic, and a name short

struct Range {
  std::int64_t lo, hi;
  int width;  ///< digits of the lower bound, zero padding included
};

[[noreturn]] void fail(std::string_view what, std::string_view expression, const std::string& why) {
  std::string shown(expression.substr(0, 80));
  if (expression.size() > 80) shown += "...";
  throw InputError(std::string(what) + ": hostlist '" + shown + "': " + why);
}

std::int64_t parse_bound(std::string_view digits, std::string_view what, std::string_view expr) {
  if (digits.empty() || digits.size() > kMaxDigits) fail(what, expr, "expected a number of 1 to 9 digits in brackets");
  std::int64_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') fail(what, expr, "unexpected '" + std::string(1, c) + "' in brackets");
    v = v * 10 + (c - '0');
  }
  return v;
}

std::vector<Range> parse_bracket(std::string_view body, std::string_view what, std::string_view expr) {
  std::vector<Range> ranges;
  while (true) {
    const std::size_t comma = body.find(',');
    const std::string_view item = body.substr(0, comma);
    const std::size_t dash = item.find('-');
    const std::string_view lo = item.substr(0, dash);
    Range r{parse_bound(lo, what, expr), 0, static_cast<int>(lo.size())};
    r.hi = dash == std::string_view::npos ? r.lo : parse_bound(item.substr(dash + 1), what, expr);
    if (r.hi < r.lo) fail(what, expr, "range '" + std::string(item) + "' goes down");
    ranges.push_back(r);
    if (comma == std::string_view::npos) return ranges;
    body.remove_prefix(comma + 1);
  }
}

std::string padded(std::int64_t v, int width) {
  std::string s = std::to_string(v);
  if (static_cast<int>(s.size()) < width) s.insert(0, static_cast<std::size_t>(width) - s.size(), '0');
  return s;
}

/// One comma-free name with brackets: every combination, the last bracket fastest.
void expand_name(std::string_view name, std::string_view what, std::string_view expr, std::vector<std::string>& out) {
  std::vector<std::string> partial{""};
  std::size_t at = 0;
  while (at < name.size()) {
    const std::size_t open = name.find('[', at);
    const std::string_view literal = name.substr(at, open == std::string_view::npos ? std::string_view::npos : open - at);
    if (literal.find(']') != std::string_view::npos) fail(what, expr, "']' without '['");
    for (std::string& p : partial) p += literal;
    if (open == std::string_view::npos) break;
    const std::size_t close = name.find(']', open);
    if (close == std::string_view::npos) fail(what, expr, "'[' without ']'");
    const std::string_view body = name.substr(open + 1, close - open - 1);
    if (body.find('[') != std::string_view::npos) fail(what, expr, "nested '['");
    const std::vector<Range> ranges = parse_bracket(body, what, expr);
    std::size_t choices = 0;
    for (const Range& r : ranges) choices += static_cast<std::size_t>(r.hi - r.lo + 1);
    if (choices > kMaxHostlistNames || partial.size() * choices + out.size() > kMaxHostlistNames)
      fail(what, expr, "more than " + std::to_string(kMaxHostlistNames) + " names");
    std::vector<std::string> next;
    next.reserve(partial.size() * choices);
    for (const std::string& p : partial)
      for (const Range& r : ranges)
        for (std::int64_t v = r.lo; v <= r.hi; ++v) next.push_back(p + padded(v, r.width));
    partial = std::move(next);
    at = close + 1;
  }
  for (std::string& p : partial) out.push_back(std::move(p));
}

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view expression, std::string_view what) {
  std::vector<std::string> out;
  std::size_t start = 0, depth = 0;
  for (std::size_t i = 0; i <= expression.size(); ++i) {
    const char c = i < expression.size() ? expression[i] : ',';
    if (c == '[') ++depth;
    else if (c == ']' && depth > 0) --depth;
    else if (c == ',' && depth == 0) {
      const std::string_view name = expression.substr(start, i - start);
      if (name.empty()) fail(what, expression, "an empty name");
      expand_name(name, what, expression, out);
      start = i + 1;
    }
  }
  if (depth != 0) fail(what, expression, "'[' without ']'");
  return out;
}

}  // namespace rankmap::topology
