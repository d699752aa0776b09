// Host names only: processes on one host share a node, and no network coordinates are known.
#include "hostname.hpp"
#include "hwloc_socket.hpp"
#include "providers.hpp"

#include <rankmap/hash.hpp>
#include <rankmap/types.hpp>

#include <climits>
#include <unistd.h>

namespace rankmap::coords {

std::string this_host_name() {
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof name - 1) != 0) throw InputError("gethostname() failed");
  return name;
}

std::uint64_t node_key_of_host(std::string_view host) {
  StableHash h;
  h.bytes(host.data(), host.size());
  return h.digest();
}

std::string_view short_host_name(std::string_view host) { return host.substr(0, host.find('.')); }

namespace {

class HostnameProvider final : public Provider {
 public:
  std::string name() const override { return "hostname"; }
  Location locate(int, int) const override {
    Location where;
    where.node_key = node_key_of_host(this_host_name());
    where.socket = socket_of_this_process();
    return where;
  }
};

}  // namespace

std::unique_ptr<Provider> make_hostname_provider() { return std::make_unique<HostnameProvider>(); }

}  // namespace rankmap::coords
