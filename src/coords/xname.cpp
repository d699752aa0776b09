// Parsing HPE Cray EX node xnames strictly, so that a site's unusual naming is reported, not guessed at.
#include "xname.hpp"

#include <rankmap/types.hpp>

#include <string>

namespace rankmap::coords {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string printable(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 64)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return text.size() > 64 ? out + "..." : out;
}

}  // namespace

Xname parse_xname(std::string_view text, std::string_view source) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  const auto fail = [&](const std::string& why) {
    return InputError(std::string(source) + ": '" + printable(text) + "' is not a node xname x<cabinet>c<chassis>s<slot>b<board>n<node>: " + why);
  };
  static constexpr char kLetters[5] = {'x', 'c', 's', 'b', 'n'};
  static constexpr const char* kNames[5] = {"cabinet", "chassis", "slot", "board", "node"};
  int value[5] = {};
  std::size_t at = 0;
  for (int f = 0; f < 5; ++f) {
    if (at >= text.size() || text[at] != kLetters[f])
      throw fail(std::string("expected '") + kLetters[f] + "' before the " + kNames[f] + " number");
    ++at;
    const std::size_t start = at;
    long v = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9' && at - start < 6) v = v * 10 + (text[at++] - '0');
    if (at == start) throw fail(std::string("the ") + kNames[f] + " number is missing");
    if (v > 99999 || (at < text.size() && text[at] >= '0' && text[at] <= '9'))
      throw fail(std::string("the ") + kNames[f] + " number is larger than 99999");
    value[f] = static_cast<int>(v);
  }
  if (at != text.size()) throw fail("unexpected text after the node number");
  return {value[0], value[1], value[2], value[3], value[4]};
}

}  // namespace rankmap::coords
