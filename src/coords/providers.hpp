// The individual providers, and the system calls of BG/Q and Cray behind injectable function pointers.
#pragma once

#include "provider.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <string>

namespace rankmap::coords {

using HostNameFn = std::string (*)();

std::unique_ptr<Provider> make_hostname_provider();
std::unique_ptr<Provider> make_file_provider(std::string path, HostNameFn host_name);
std::unique_ptr<Provider> make_emulation_provider(const CoordsSpec& spec);

/// The fields of a Blue Gene/Q personality rankmap needs (Network_Config A-E).
struct BgqPersonality {
  std::array<int, 5> coords{};   ///< Acoord .. Ecoord
  std::array<int, 5> extents{};  ///< Anodes .. Enodes
  std::array<bool, 5> torus{};   ///< NetFlags & ND_ENABLE_TORUS_DIM_A .. _E
};
/// Fills the personality of the calling node; false when the kernel refuses (Kernel_GetPersonality != 0).
using BgqPersonalityFn = bool (*)(BgqPersonality&);
std::unique_ptr<Provider> make_bgq_provider(BgqPersonalityFn read_personality);

/// The Cray Gemini/Aries calls rankmap needs, each returning 0 on success like the real ones.
struct CrayCalls {
  int (*pmi_get_rank)(int* rank);                  ///< PMI_Get_rank
  int (*pmi_get_nid)(int rank, int* nid);          ///< PMI_Get_nid
  int (*mesh_coord)(int nid, int xyz[3]);          ///< rca_get_meshcoord
  int (*max_dimension)(int xyz[3]);                ///< rca_get_max_dimension (largest coordinates)
};
std::unique_ptr<Provider> make_cray_provider(const CrayCalls& calls);

#ifdef RANKMAP_HAVE_BGQ
bool read_bgq_personality(BgqPersonality& out);
#endif
#ifdef RANKMAP_HAVE_CRAY_RCA
const CrayCalls& cray_system_calls();
#endif

}  // namespace rankmap::coords
