// Locations from an allocation file (RANKMAP_COORDS=file:PATH), looked up by host name: a coordinate
// file on a torus or mesh, a network allocation file on a fat-tree or dragonfly.
#include "hostname.hpp"
#include "hwloc_socket.hpp"
#include "providers.hpp"

#include <rankmap/topology/allocation_file.hpp>
#include <rankmap/types.hpp>

namespace rankmap::coords {

namespace {

/// The exact host name, else the one entry with the same short name (files often list short names).
const topology::NodeEntry* lookup(const topology::AllocationFile& file, std::string_view host) {
  for (const auto& e : file.nodes)
    if (e.host == host) return &e;
  const topology::NodeEntry* found = nullptr;
  for (const auto& e : file.nodes) {
    if (short_host_name(e.host) != short_host_name(host)) continue;
    if (found) return nullptr;
    found = &e;
  }
  return found;
}

class FileProvider final : public Provider {
 public:
  FileProvider(std::string path, HostNameFn host_name) : path_(std::move(path)), host_name_(host_name) {}
  std::string name() const override { return "file:" + path_; }

  Location locate(int, int) const override {
    const topology::AllocationFile file = topology::read_allocation_file(path_);
    const std::string host = host_name_();
    const topology::NodeEntry* entry = lookup(file, host);
    if (!entry) throw InputError(path_ + ": host '" + host + "' is not listed");
    Location where;
    where.node_key = node_key_of_host(entry->host);
    place_on(where, file.network, entry->node);
    where.socket = socket_of_this_process();
    return where;
  }

 private:
  std::string path_;
  HostNameFn host_name_;
};

}  // namespace

std::unique_ptr<Provider> make_file_provider(std::string path, HostNameFn host_name) {
  return std::make_unique<FileProvider>(std::move(path), host_name);
}

}  // namespace rankmap::coords
