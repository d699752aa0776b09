// Cray XE/XK (Gemini 3D torus): the node id from PMI and its mesh coordinates from RCA.
#include "hwloc_socket.hpp"
#include "providers.hpp"

#include <rankmap/types.hpp>

namespace rankmap::coords {

namespace {

class CrayProvider final : public Provider {
 public:
  explicit CrayProvider(const CrayCalls& calls) : calls_(calls) {}
  std::string name() const override { return "cray"; }

  Location locate(int, int) const override {
    int rank = 0, nid = 0, xyz[3] = {}, max[3] = {};
    if (calls_.pmi_get_rank(&rank) != 0) throw InputError("RANKMAP_COORDS=cray: PMI_Get_rank failed");
    if (calls_.pmi_get_nid(rank, &nid) != 0) throw InputError("RANKMAP_COORDS=cray: PMI_Get_nid failed");
    if (calls_.mesh_coord(nid, xyz) != 0)
      throw InputError("RANKMAP_COORDS=cray: rca_get_meshcoord failed for nid " + std::to_string(nid));
    if (calls_.max_dimension(max) != 0) throw InputError("RANKMAP_COORDS=cray: rca_get_max_dimension failed");
    Location where;
    // Gemini wraps every dimension of the torus.
    where.grid = topology::Grid({max[0] + 1, max[1] + 1, max[2] + 1}, {true, true, true});
    for (int d = 0; d < 3; ++d) {
      if (xyz[d] < 0 || xyz[d] > max[d])
        throw InputError("RANKMAP_COORDS=cray: nid " + std::to_string(nid) + " has mesh coordinate " +
                         std::to_string(xyz[d]) + " beyond the largest " + std::to_string(max[d]));
      where.coords[d] = xyz[d];
    }
    where.node_key = static_cast<std::uint64_t>(nid);
    where.socket = socket_of_this_process();
    return where;
  }

 private:
  CrayCalls calls_;
};

}  // namespace

std::unique_ptr<Provider> make_cray_provider(const CrayCalls& calls) { return std::make_unique<CrayProvider>(calls); }

}  // namespace rankmap::coords
