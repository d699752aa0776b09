// The individual providers, and the system calls of BG/Q, Cray, Tofu and Slurm behind injectable function pointers.
#pragma once

#include "provider.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

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

/// Fujitsu's FJMPI_Topology_get_coords(MPI_COMM_WORLD, rank, FJMPI_TOFU_SYS, 6, coords), 0 on success.
using TofuCoordsFn = int (*)(int world_rank, int coords[6]);
/// Fugaku's X, Y, Z extents (24 x 23 x 24 x 2 x 3 x 2 = 158,976 nodes).
inline constexpr std::array<int, 3> kFugakuXyz = {24, 23, 24};
/// The Tofu grid: X, Y, Z torus of the given extents, then A = 2 (mesh), B = 3 (torus), C = 2 (mesh).
topology::Grid tofu_grid(const std::array<int, 3>& xyz);
/// `XxYxZ` after `tofu:`; empty text gives kFugakuXyz. Throws InputError naming RANKMAP_COORDS.
std::array<int, 3> parse_tofu_shape(std::string_view text);
std::unique_ptr<Provider> make_tofu_provider(TofuCoordsFn get_coords, const std::array<int, 3>& xyz);

/// HPE Cray EX: the node's xname read from `xname_path` (/etc/cray/xname on the machine), placed on
/// the Slingshot dragonfly by the rule in `options` (craype_rule.hpp).
inline constexpr const char* kCrayXnamePath = "/etc/cray/xname";
std::unique_ptr<Provider> make_craype_provider(std::string_view options, std::string xname_path);

/// getenv(), injectable so that tests fake a Slurm job's environment.
using GetEnvFn = const char* (*)(const char* name);
/// Slurm's topology/tree: the node's switches from SLURM_TOPOLOGY_ADDR and _PATTERN, whose node
/// name must be `host_name()`'s (up to the first dot): anything else was inherited from another node.
std::unique_ptr<Provider> make_slurm_provider(GetEnvFn get_env, HostNameFn host_name);

#ifdef RANKMAP_HAVE_BGQ
bool read_bgq_personality(BgqPersonality& out);
#endif
#ifdef RANKMAP_HAVE_CRAY_RCA
const CrayCalls& cray_system_calls();
#endif
#ifdef RANKMAP_HAVE_TOFU
TofuCoordsFn tofu_system_call();
#endif

}  // namespace rankmap::coords
