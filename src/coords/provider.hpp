// Coordinate providers: where the calling process runs, from a file, an emulation or the machine itself.
#pragma once

#include <rankmap/topology/grid.hpp>
#include <rankmap/topology/network.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::coords {

/// Where the calling process runs, as one provider sees it.
struct Location {
  std::uint64_t node_key = 0;         ///< equal exactly for processes that share a node
  std::optional<topology::Grid> grid; ///< the machine's network; empty when only nodes are known
  topology::Coords coords{};          ///< the node's coordinates in `grid`
  int socket = -1;                    ///< the socket (package) of this process within its node, -1 unknown
  /// A network that is not a grid (craype: a Slingshot dragonfly; a network allocation file; an
  /// emulated fat-tree or dragonfly) and this node's index in it.
  std::optional<topology::Network> network;
  NodeId network_node = -1;
  /// slurm: the switches from the root of the tree down to the node's leaf switch, and the node's
  /// name, from SLURM_TOPOLOGY_ADDR. Empty for other providers. The placement builds the tree that
  /// every process's path spans.
  std::vector<std::string> switch_path;
  std::string node_name;
};

/// Puts `where` on `node` of `network`: a grid's coordinates, or another network's node index.
inline void place_on(Location& where, const topology::Network& network, NodeId node) {
  if (const topology::Grid* grid = network.grid_if()) {
    where.grid = *grid;
    where.coords = grid->coords_of(node);
  } else {
    where.network = network;
    where.network_node = node;
  }
}

/// One source of locations. Providers make no MPI call, so they run anywhere and test without MPI.
class Provider {
 public:
  virtual ~Provider() = default;
  virtual std::string name() const = 0;
  /// Where the calling process runs. `world_rank` and `world_size` (of MPI_COMM_WORLD) matter
  /// only to emulation. Throws InputError with a message naming the source of the problem.
  virtual Location locate(int world_rank, int world_size) const = 0;
};

/// A parsed RANKMAP_COORDS value.
struct CoordsSpec {
  enum class Kind { automatic, file, emulate, bgq, cray, hostname, tofu, craype, slurm };
  Kind kind = Kind::automatic;
  std::string path;            ///< file
  std::string grid;            ///< emulate: the network spec, e.g. `torus:4x4x4` or `fattree:2;4,4;1,2;1,2`
  int ppn = 1;                 ///< emulate: processes per emulated node
  int sockets = 1;             ///< emulate: sockets per emulated node (ppn must be a multiple)
  std::string options;         ///< tofu: `XxYxZ`; craype: the rule's `key=value,...` (both validated by parse)

  /// Parses `auto`, `file:PATH`, `emulate:<network>[,ppn=N][,sockets=S]`, `bgq`, `cray`, `hostname`,
  /// `tofu[:XxYxZ]`, `craype[:key=value,...]` or `slurm`.
  /// Throws InputError naming the value otherwise.
  static CoordsSpec parse(std::string_view text);
};

/// The provider a spec names. `auto` tries BG/Q, then Cray XE/XK, then Tofu (each where this build
/// supports it), then slurm (where SLURM_TOPOLOGY_ADDR is set), then craype (where /etc/cray/xname
/// exists), then host names. Throws InputError for a machine this build cannot read.
std::unique_ptr<Provider> make_provider(const CoordsSpec& spec);

}  // namespace rankmap::coords
