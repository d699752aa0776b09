// Emulated machines (RANKMAP_COORDS=emulate:...): old rank r on node r/ppn of a row-major walk (DESIGN.md §8).
#include "providers.hpp"

#include <rankmap/types.hpp>

namespace rankmap::coords {

namespace {

class EmulationProvider final : public Provider {
 public:
  explicit EmulationProvider(const CoordsSpec& spec)
      : grid_(topology::Grid::parse(spec.grid)), spec_text_(spec.grid), ppn_(spec.ppn), sockets_(spec.sockets) {}

  std::string name() const override { return "emulate:" + spec_text_; }

  Location locate(int world_rank, int world_size) const override {
    const std::int64_t slots = grid_.num_nodes() * ppn_;
    if (world_size > slots)
      throw InputError("RANKMAP_COORDS=emulate:" + spec_text_ + ": " + std::to_string(grid_.num_nodes()) +
                       " nodes x ppn " + std::to_string(ppn_) + " = " + std::to_string(slots) +
                       " slots, fewer than the " + std::to_string(world_size) + " processes");
    const NodeId node = world_rank / ppn_;
    Location where;
    where.node_key = static_cast<std::uint64_t>(node);
    where.grid = grid_;
    where.coords = grid_.coords_of(node);
    // Slots fill a node socket by socket, like a launcher binding ranks to cores in order.
    where.socket = (world_rank % ppn_) / (ppn_ / sockets_);
    return where;
  }

 private:
  topology::Grid grid_;
  std::string spec_text_;
  int ppn_;
  int sockets_;
};

}  // namespace

std::unique_ptr<Provider> make_emulation_provider(const CoordsSpec& spec) {
  return std::make_unique<EmulationProvider>(spec);
}

}  // namespace rankmap::coords
