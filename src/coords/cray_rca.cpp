// The real Cray PMI and RCA calls; compiled only where pmi.h and rca_lib.h exist.
#include "providers.hpp"

#include <cstdint>

extern "C" {
#include <pmi.h>
#include <rca_lib.h>
}

namespace rankmap::coords {

namespace {

int get_rank(int* rank) { return PMI_Get_rank(rank) == PMI_SUCCESS ? 0 : -1; }
int get_nid(int rank, int* nid) { return PMI_Get_nid(rank, nid) == PMI_SUCCESS ? 0 : -1; }

int mesh_coord(int nid, int xyz[3]) {
  rca_mesh_coord_t c;
  if (rca_get_meshcoord(static_cast<std::uint16_t>(nid), &c) != 0) return -1;
  xyz[0] = c.mesh_x;
  xyz[1] = c.mesh_y;
  xyz[2] = c.mesh_z;
  return 0;
}

int max_dimension(int xyz[3]) { return rca_get_max_dimension(&xyz[0], &xyz[1], &xyz[2]); }

}  // namespace

const CrayCalls& cray_system_calls() {
  static const CrayCalls calls{&get_rank, &get_nid, &mesh_coord, &max_dimension};
  return calls;
}

}  // namespace rankmap::coords
