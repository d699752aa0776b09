// HPE Cray EX (Slingshot): the node's xname, placed on a dragonfly by the site's craype rule.
#include "craype_rule.hpp"
#include "hwloc_socket.hpp"
#include "providers.hpp"

#include <rankmap/types.hpp>

#include <fstream>

namespace rankmap::coords {

namespace {

class CrayPeProvider final : public Provider {
 public:
  CrayPeProvider(CrayPeRule rule, std::string path) : rule_(rule), path_(std::move(path)) {}
  std::string name() const override { return "craype"; }

  Location locate(int, int) const override {
    std::ifstream in(path_);
    if (!in) throw InputError("RANKMAP_COORDS=craype: cannot read " + path_);
    // An xname is short; reading a bounded prefix keeps a wrong path (a device, a huge file) harmless.
    std::string text(256, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    const Xname x = parse_xname(text, path_ + ":1");
    Location where;
    where.network_node = rule_.node_of(x, path_ + ":1");
    where.network = topology::Network(rule_.network());
    where.node_key = static_cast<std::uint64_t>(where.network_node);
    where.socket = socket_of_this_process();
    return where;
  }

 private:
  CrayPeRule rule_;
  std::string path_;
};

}  // namespace

std::unique_ptr<Provider> make_craype_provider(std::string_view options, std::string xname_path) {
  return std::make_unique<CrayPeProvider>(CrayPeRule::parse(options), std::move(xname_path));
}

}  // namespace rankmap::coords
