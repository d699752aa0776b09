// The host name of the calling process and the node key derived from it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rankmap::coords {

/// gethostname(), or InputError if it fails.
std::string this_host_name();
/// A stable 64-bit key of a host name; processes with the same host share a node.
std::uint64_t node_key_of_host(std::string_view host);
/// The host name up to its first dot.
std::string_view short_host_name(std::string_view host);

}  // namespace rankmap::coords
