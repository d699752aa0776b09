// HPE Cray EX component names (xnames) of compute nodes: x<cabinet>c<chassis>s<slot>b<board>n<node>.
#pragma once

#include <string_view>

namespace rankmap::coords {

/// A compute node's xname, e.g. `x1000c3s5b0n1`: cabinet 1000, chassis 3, slot (blade) 5, node
/// card (board) 0, node 1.
struct Xname {
  int cabinet = 0, chassis = 0, slot = 0, board = 0, node = 0;
};

/// Parses one node xname. Surrounding white space (a file's newline) is allowed; anything else
/// that is not exactly the five numbered fields, each 0..99999 without sign, is an InputError
/// naming `source` and the text.
Xname parse_xname(std::string_view text, std::string_view source);

}  // namespace rankmap::coords
