// Blue Gene/Q: the node's A-E coordinates and torus flags from its personality.
#include "hwloc_socket.hpp"
#include "providers.hpp"

#include <rankmap/types.hpp>

namespace rankmap::coords {

namespace {

class BgqProvider final : public Provider {
 public:
  explicit BgqProvider(BgqPersonalityFn read) : read_(read) {}
  std::string name() const override { return "bgq"; }

  Location locate(int, int) const override {
    BgqPersonality p;
    if (!read_(p)) throw InputError("RANKMAP_COORDS=bgq: Kernel_GetPersonality failed");
    std::vector<int> extents(p.extents.begin(), p.extents.end());
    std::vector<bool> torus(p.torus.begin(), p.torus.end());
    Location where;
    where.grid = topology::Grid(std::move(extents), std::move(torus));
    for (int d = 0; d < 5; ++d) {
      if (p.coords[d] < 0 || p.coords[d] >= p.extents[d])
        throw InputError("RANKMAP_COORDS=bgq: the personality's coordinate " + std::string(1, "ABCDE"[d]) + "=" +
                         std::to_string(p.coords[d]) + " lies outside its extent " + std::to_string(p.extents[d]));
      where.coords[d] = p.coords[d];
    }
    where.node_key = static_cast<std::uint64_t>(where.grid->node_at(where.coords));
    where.socket = socket_of_this_process();
    return where;
  }

 private:
  BgqPersonalityFn read_;
};

}  // namespace

std::unique_ptr<Provider> make_bgq_provider(BgqPersonalityFn read_personality) {
  return std::make_unique<BgqProvider>(read_personality);
}

}  // namespace rankmap::coords
