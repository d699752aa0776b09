// Fujitsu Tofu (K computer, Fugaku): the node's six Tofu coordinates as a point of the 6D X,Y,Z,A,B,C grid.
#include "hwloc_socket.hpp"
#include "providers.hpp"

#include <rankmap/types.hpp>

#include <charconv>
#include <iterator>

namespace rankmap::coords {

namespace {

// Tofu's A and C axes are pairs of nodes joined by one link (a mesh); B is a ring of three
// (a torus); X, Y and Z wrap (Ajima et al., IEEE Computer 42(11), 2009; Tofu-D keeps the
// same 6D structure, Ajima et al., IEEE Cluster 2018).
constexpr bool kTofuTorus[6] = {true, true, true, false, true, false};
constexpr int kTofuAbc[3] = {2, 3, 2};

class TofuProvider final : public Provider {
 public:
  TofuProvider(TofuCoordsFn get_coords, std::array<int, 3> xyz) : get_coords_(get_coords), xyz_(xyz) {}
  std::string name() const override { return "tofu"; }

  Location locate(int world_rank, int) const override {
    int c[6] = {};
    if (get_coords_(world_rank, c) != 0)
      throw InputError("RANKMAP_COORDS=tofu: FJMPI_Topology_get_coords failed for rank " + std::to_string(world_rank));
    const topology::Grid grid = tofu_grid(xyz_);
    Location where;
    for (int d = 0; d < 6; ++d) {
      if (c[d] < 0 || c[d] >= grid.extent(d))
        throw InputError("RANKMAP_COORDS=tofu: coordinate " + std::string(1, "XYZABC"[d]) + "=" + std::to_string(c[d]) +
                         " lies outside the machine's extent " + std::to_string(grid.extent(d)) +
                         " (set the machine's X,Y,Z with RANKMAP_COORDS=tofu:XxYxZ)");
      where.coords[d] = c[d];
    }
    where.node_key = static_cast<std::uint64_t>(grid.node_at(where.coords));
    where.grid = grid;
    where.socket = socket_of_this_process();
    return where;
  }

 private:
  TofuCoordsFn get_coords_;
  std::array<int, 3> xyz_;
};

}  // namespace

topology::Grid tofu_grid(const std::array<int, 3>& xyz) {
  return topology::Grid({xyz[0], xyz[1], xyz[2], kTofuAbc[0], kTofuAbc[1], kTofuAbc[2]},
                        std::vector<bool>(std::begin(kTofuTorus), std::end(kTofuTorus)));
}

std::array<int, 3> parse_tofu_shape(std::string_view text) {
  if (text.empty()) return kFugakuXyz;
  std::array<int, 3> xyz{};
  std::string_view rest = text;
  for (int d = 0; d < 3; ++d) {
    const std::size_t x = d < 2 ? rest.find('x') : rest.size();
    const std::string_view part = rest.substr(0, x);
    int v = 0;
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (x == std::string_view::npos || part.empty() || ec != std::errc{} || ptr != part.data() + part.size() || v < 1 ||
        v > topology::kMaxExtent)
      throw InputError("RANKMAP_COORDS=tofu:" + std::string(text) + ": expected XxYxZ, three extents from 1 to " +
                       std::to_string(topology::kMaxExtent));
    xyz[d] = v;
    rest = d < 2 ? rest.substr(x + 1) : std::string_view();
  }
  return xyz;
}

std::unique_ptr<Provider> make_tofu_provider(TofuCoordsFn get_coords, const std::array<int, 3>& xyz) {
  return std::make_unique<TofuProvider>(get_coords, xyz);
}

}  // namespace rankmap::coords
