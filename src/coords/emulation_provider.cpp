// Emulated machines (RANKMAP_COORDS=emulate:...): old rank r on node r/ppn, in row-major order on a
// grid (DESIGN.md §8), in SimGrid's numbering on a fat-tree or dragonfly.
#include "providers.hpp"

#include <rankmap/types.hpp>

namespace rankmap::coords {

namespace {

class EmulationProvider final : public Provider {
 public:
  explicit EmulationProvider(const CoordsSpec& spec)
      : network_(topology::Network::parse(spec.grid)), spec_text_(spec.grid), ppn_(spec.ppn), sockets_(spec.sockets) {}

  std::string name() const override { return "emulate:" + spec_text_; }

  Location locate(int world_rank, int world_size) const override {
    const std::int64_t slots = static_cast<std::int64_t>(network_.num_nodes()) * ppn_;
    if (world_size > slots)
      throw InputError("RANKMAP_COORDS=emulate:" + spec_text_ + ": " + std::to_string(network_.num_nodes()) +
                       " nodes x ppn " + std::to_string(ppn_) + " = " + std::to_string(slots) +
                       " slots, fewer than the " + std::to_string(world_size) + " processes");
    const NodeId node = world_rank / ppn_;
    Location where;
    where.node_key = static_cast<std::uint64_t>(node);
    place_on(where, network_, node);
    // Slots fill a node socket by socket, like a launcher binding ranks to cores in order.
    where.socket = (world_rank % ppn_) / (ppn_ / sockets_);
    return where;
  }

 private:
  topology::Network network_;
  std::string spec_text_;
  int ppn_;
  int sockets_;
};

}  // namespace

std::unique_ptr<Provider> make_emulation_provider(const CoordsSpec& spec) {
  return std::make_unique<EmulationProvider>(spec);
}

}  // namespace rankmap::coords
